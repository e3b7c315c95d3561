'use strict';
// The partial plotly.js that Lensa's pages load: plotly.js's core (its src/core.js)
// with only what the chart kinds draw. Their marks are layout shapes and pictures
// over scatter traces; a colour bar rides on a scatter trace; a series' legend entry
// is a bar trace with no values; a diagram's labels are annotations; charts have
// hover labels and legends. Left out are the components no chart uses (selections,
// error bars, range sliders and selectors, sliders, menus, grids, 3-D annotations),
// every other trace, the calendars and the Promise polyfill (every browser the pages
// support has Promise). Registering fewer modules is what makes the file smaller and
// faster to run: a module left out of a registry is skipped where plotly.js asks the
// registry for it (Registry.getComponentMethod gives a no-op).
// The chart-kind fixture's browser tests draw every kind and variant with it.

exports.version = require('plotly.js/src/version').version;

require('plotly.js/build/plotcss');  // plotly.js's style sheet, injected as it runs

var Registry = require('plotly.js/src/registry');
var register = (exports.register = Registry.register);

var plotApi = require('plotly.js/src/plot_api');
Object.keys(plotApi).forEach(function (name) {
    if (name.charAt(0) !== '_') exports[name] = plotApi[name];
    register({ moduleType: 'apiMethod', name: name, fn: plotApi[name] });
});

register(require('plotly.js/src/traces/scatter'));
register(require('plotly.js/src/traces/bar'));

register([
    require('plotly.js/src/components/annotations'),
    require('plotly.js/src/components/shapes'),
    require('plotly.js/src/components/images'),
    require('plotly.js/src/components/colorscale'),
    require('plotly.js/src/components/colorbar'),
    require('plotly.js/src/components/legend'), // after shapes: its defaults read theirs
    require('plotly.js/src/components/fx'), // after legend: unified hover's defaults read its
    require('plotly.js/src/components/modebar') // hidden (displayModeBar: false), but layout.modebar is read
]);

register([require('plotly.js/src/locale-en'), require('plotly.js/src/locale-en-us')]);

var Plots = require('plotly.js/src/plots/plots');
exports.Plots = { resize: Plots.resize };
exports.PlotSchema = require('plotly.js/src/plot_api/plot_schema'); // what the bundle can draw
