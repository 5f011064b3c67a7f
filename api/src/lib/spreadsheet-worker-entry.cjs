'use strict';
/**
 * The entry of a parse worker (spreadsheet-pool.ts): plain CommonJS, which Node loads in a worker
 * thread however the api itself runs (tsx, jest's ts-jest, node). It compiles the TypeScript of the
 * worker with tsx, for this thread only (a namespaced require: nothing else of the thread changes),
 * and exports the function piscina calls for each task.
 */
// The large JavaScript packages the readers use load first, by Node alone: the TypeScript then finds
// them loaded. Through tsx's hook, exceljs alone takes about three times as long to load.
require('exceljs');
require('zod');

const { register } = require('tsx/cjs/api');

const tsx = register({ namespace: 'spreadsheet-worker' });
module.exports = tsx.require('./spreadsheet-worker.ts', __filename).parseSpreadsheet;
