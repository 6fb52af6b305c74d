// Preloaded with `node --require`: makes `better-sqlite3` look absent (BATON_HIDE_MODE=missing,
// the error Node throws for a package that is not installed) or broken (BATON_HIDE_MODE=broken,
// what a native module built for another Node version throws).
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') {
    if (process.env.BATON_HIDE_MODE === 'broken') {
      const error = new Error('The module was compiled against a different Node.js version');
      error.code = 'ERR_DLOPEN_FAILED';
      throw error;
    }
    const error = new Error(`Cannot find module 'better-sqlite3'\nRequire stack:\n- ${__filename}`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
