'use strict';
// Bundles the theme's scripts: the ES modules under themes/default/scripts/ into one
// classic script per file the pages load, at the paths they have always had
// (themes/default/static/runtime.js, share.js, figure.js, …), so templates, the single-file
// copy (outputs/offline.py), SCORM packages and pages opened from file:// work as
// before. The bundles are committed: an installed Lensa has no Node. A test
// (tests/scripts/test_bundles.py) runs `--check`, which fails when a committed bundle
// differs from a fresh bundle of the sources. esbuild minifies them (mangling local
// names, which rjsmin cannot); the build's rjsmin pass then only drops the banner.
//
// usage: node themes/default/scripts/bundle.cjs [--check]

const fs = require('fs');
const path = require('path');

const HERE = __dirname;
const ROOT = path.resolve(HERE, '..', '..', '..');
const STATIC = path.resolve(HERE, '..', 'static');

// Output name under static/ -> entry module under scripts/.
const BUNDLES = {
    'runtime.js': 'runtime/main.js',
    'share.js': 'share/main.js',
    'figure.js': 'figure/main.js',
    'game.js': 'game/main.js',
    'questions.js': 'questions/main.js',
    'scorm.js': 'scorm/main.js',
    'embed-code.js': 'embed-code/main.js',
    'frame.js': 'frame/main.js',
    'embed.js': 'embed/main.js',
};

let esbuild;
try {
    esbuild = require(require.resolve('esbuild', { paths: [ROOT] }));
} catch (error) {
    console.error('error: esbuild is not installed: run `npm ci` first (make build does)');
    process.exit(1);
}

function bundle(entry) {
    const result = esbuild.buildSync({
        entryPoints: [path.join(HERE, entry)],
        absWorkingDir: HERE,
        bundle: true,
        format: 'iife',
        target: 'es2017',
        minify: true,
        legalComments: 'none',
        banner: { js: `/* Bundled by themes/default/scripts/bundle.cjs from scripts/${entry}: edit that. */` },
        write: false,
        logLevel: 'silent',  // its errors are said below, one line each
    });
    return result.outputFiles[0].text;
}

// An esbuild failure as one line per error, each naming the file and line from the repository's
// root, as the build names content: the dev server shows these over the page (generator/dev/serve.py).
function failed(error) {
    for (const problem of error.errors || [{ text: String(error.message || error) }]) {
        const at = problem.location;
        const where = at ? `${path.relative(ROOT, path.join(HERE, at.file)).split(path.sep).join('/')}:${at.line}:` +
            `${at.column + 1}: ` : '';
        console.error(`error: ${where}${problem.text}`);
    }
    process.exit(1);
}

const check = process.argv.includes('--check');
const stale = [];
// Every bundle made before any is written: a source that does not bundle leaves all of them as they were.
let made;
try {
    made = Object.entries(BUNDLES).map(([name, entry]) => [name, bundle(entry)]);
} catch (error) {
    failed(error);
}
for (const [name, text] of made) {
    const target = path.join(STATIC, name);
    if (check) {
        const committed = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
        if (committed !== text) stale.push(name);
    } else if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) {
        fs.writeFileSync(target, text);  // only when changed: the build's cache keys on mtimes
        console.log(`bundled themes/default/static/${name}`);
    }
}
if (stale.length) {
    console.error(`error: themes/default/static/${stale.join(', ')} differ from a fresh bundle of ` +
                  'themes/default/scripts/: run `node themes/default/scripts/bundle.cjs` and commit the result');
    process.exit(1);
}
