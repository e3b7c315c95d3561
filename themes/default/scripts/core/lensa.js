// The one name the theme's scripts put on window: `lensa`, made by the page's head
// (templates/_early_input.html) and completed by each script as it runs, so that
// scripts of one page can find each other (docs/architecture.md, "What the scripts
// share on window"). Here, the same object for a bundle's modules, made if the page's
// head did not.
export var lensa = window.lensa || (window.lensa = {});
