/** The majors are defined once, in the engine (the slippage table needs them too, and the engine imports nothing outside itself). */
export { MAJOR_PAIRS } from '../engine/majors.js';
