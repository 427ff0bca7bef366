// ES module entry point: the same functions as index.js.
import urlnorm from './index.js';

export const { version, extensionPath, loadStatement, load, create } = urlnorm;
