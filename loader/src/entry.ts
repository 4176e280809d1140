/** The global `Gatehouse` object of the loader script (IIFE build). */
export { initialize, getApp, version } from './gatehouse';
