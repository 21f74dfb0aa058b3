// web/api_hub_externs.js: for Closure Compiler (--closure-args=--externs=...): the binding that
// api_hub_pre.js imports outside the code Closure sees, which api_hub.js uses.
/** @type {?} */
var gpusizerHub;
