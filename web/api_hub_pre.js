// web/api_hub_pre.js: the first lines of gpusizer.js (emcc --extern-pre-js, outside the code
// Closure Compiler sees): "From the Hub" (site/hub.mjs, served beside gpusizer.js), for
// gs.fromHub (api_hub.js). The widget's module (gpusizer-lite.js) does not import it.
import * as gpusizerHub from './hub.mjs';
