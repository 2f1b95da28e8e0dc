export { EsdbEventStore, createEsdbEventStore } from './store.ts';
export { encodePosition, decodePosition } from './position.ts';
