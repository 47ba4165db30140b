/**
 * The record model as the rest of Vigil imports it: the table and its
 * derived operations live in rr/ (one file per type, rr/index.ts the list).
 */
export * from './rr/index.ts';
export { defaultSoa, setSoa, soaLine, type SoaData } from './rr/soa.ts';
export { setOptions, type OptionsData } from './rr/options.ts';
export { srvOwner } from './rr/srv.ts';
