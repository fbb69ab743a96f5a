// Stands in for the `object.entries` polyfill package that node-polyglot (react-admin's translations) requires: every
// browser the app supports has Object.entries, and the polyfill brought its own copy of get-intrinsic and friends
// (about 16 KB) into the first page's script. CommonJS, as node-polyglot calls it with require().
module.exports = function entries(value) {
  return Object.entries(value);
};
