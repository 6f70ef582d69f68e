/**
 * What `#traced` is in a browser build: nothing. Browsers have no diagnostics channel, so the
 * import is never made there; bundlers still resolve it, and get this empty module.
 */
export {};
