// The mls module's door: the Peppol Message Level Status document (the flows that send and match MLS build on it).
export * from './document/index.ts';
