'use strict';
// Builds the partial plotly.js the pages load (entry.js) from the plotly.js source
// that package.json pins, into plotly-bundle/dist/: plotly.min.js, with a package.json
// that names it (resources.Bundle reads it) and plotly.js's licence. `make` runs it
// after npm ci; setup.py runs it when a wheel is built from a checkout without it.
//
// Like plotly.js's own minified bundles, it leaves out the attribute descriptions
// (the schema's documentation, which no chart reads): about an eighth of the file.
// The same inputs (package-lock.json pins every module) give the same bytes.
//
// usage: node plotly-bundle/bundle.js [output folder]   (default plotly-bundle/dist)

const fs = require('fs');
const path = require('path');

const HERE = __dirname;
const ROOT = path.dirname(HERE);
const OUTPUT = path.resolve(process.argv[2] || path.join(HERE, 'dist'));

function need(name) {
    try {
        return require(require.resolve(name, { paths: [ROOT] }));
    } catch (error) {
        console.error(`error: ${name} is not installed: run \`npm ci\` first (make build does)`);
        process.exit(1);
    }
}

const esbuild = need('esbuild');
const acorn = need('acorn');
const plotly = need('plotly.js/package.json');
const PLOTLY_DIR = path.dirname(require.resolve('plotly.js/package.json', { paths: [ROOT] }));

// Every `description: ...` property of an object literal, with its comma, cut out
// of a plotly.js source file. The file is parsed, so a description's text (brackets,
// quotes, a `.join(' ')`) can never confuse the cut.
function withoutDescriptions(text) {
    const tree = acorn.parse(text, { ecmaVersion: 2022, sourceType: 'script', allowReturnOutsideFunction: true });
    const cuts = [];
    const seen = new Set();
    (function visit(node) {
        if (!node || typeof node.type !== 'string' || seen.has(node)) return;
        seen.add(node); // a shorthand property's key and value are one node
        if (node.type === 'ObjectExpression') {
            node.properties.forEach(function (property, at) {
                const key = property.type === 'Property' && !property.computed && property.key;
                if (!key || (key.name || key.value) !== 'description') return;
                const before = node.properties[at - 1], after = node.properties[at + 1];
                cuts.push(after ? [property.start, after.start]
                    : before ? [before.end, property.end] : [property.start, node.end - 1]);
            });
        }
        for (const key in node) {
            const value = node[key];
            if (Array.isArray(value)) value.forEach(visit);
            else if (value && typeof value.type === 'string') visit(value);
        }
    })(tree);
    cuts.sort(function (a, b) { return b[0] - a[0]; });
    for (const [start, end] of cuts) text = text.slice(0, start) + text.slice(end);
    return text;
}

const stripDescriptions = {
    name: 'strip-descriptions',
    setup(build) {
        build.onLoad({ filter: /[\\/]plotly\.js[\\/]src[\\/].*\.js$/ }, async function (args) {
            const text = await fs.promises.readFile(args.path, 'utf8');
            return { contents: withoutDescriptions(text), loader: 'js' };
        });
    }
};

// plotly.js requires a style sheet only as it registers a map trace (maplibre's), which
// this bundle has none of: it stays out rather than becoming a file of its own.
const noStyleSheets = {
    name: 'no-style-sheets',
    setup(build) {
        build.onResolve({ filter: /\.css$/ }, function (args) { return { path: args.path, namespace: 'no-css' }; });
        build.onLoad({ filter: /.*/, namespace: 'no-css' }, function () { return { contents: '', loader: 'js' }; });
    }
};

const licence = fs.readFileSync(path.join(PLOTLY_DIR, 'LICENSE'), 'utf8');
const copyright = (licence.match(/^Copyright.*$/m) || ['Copyright Plotly'])[0];

async function main() {
    const result = await esbuild.build({
        entryPoints: [path.join(HERE, 'entry.js')],
        absWorkingDir: ROOT,
        bundle: true,
        format: 'iife',
        globalName: 'Plotly', // window.Plotly, as the official bundles set it
        minify: true,
        target: 'es2018',
        charset: 'utf8',
        legalComments: 'eof', // the bundled modules' licence notices, kept
        banner: { js: `/*! plotly.js v${plotly.version}, Lensa's partial bundle (plotly-bundle/entry.js) | ${copyright} | ${plotly.license} licence */` },
        define: { global: 'window', 'process.env.NODE_DEBUG': 'false' },
        alias: { stream: 'stream-browserify' },
        plugins: [stripDescriptions, noStyleSheets],
        write: false,
        logLevel: 'warning'
    });
    const code = result.outputFiles[0].contents;
    const manifest = {
        name: 'plotly.js-lensa',
        version: plotly.version,
        license: plotly.license,
        main: 'plotly.min.js',
        description: `plotly.js ${plotly.version}'s core with the scatter and bar traces and the components ` +
            "Lensa's chart kinds use, built by plotly-bundle/bundle.js from package.json's plotly.js"
    };
    // Into a fresh folder beside the output, then renamed over it: a build that stops
    // halfway leaves the previous bundle whole.
    const staging = OUTPUT + '.new';
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, manifest.main), code);
    fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    fs.writeFileSync(path.join(staging, 'LICENSE'), licence);
    fs.rmSync(OUTPUT, { recursive: true, force: true });
    fs.renameSync(staging, OUTPUT);
    console.log(`${path.relative(process.cwd(), path.join(OUTPUT, manifest.main))}: plotly.js ${plotly.version}, ` +
        `${(code.length / 1024).toFixed(0)} KB`);
}

main().catch(function (error) {
    console.error(`error: the plotly.js bundle did not build: ${error.message}`);
    process.exit(1);
});
