// Plain-JS entry for the cluster-making process when the service runs from source (tsx: tests, the
// CLI): register tsx in that process first. The compiled build runs embedded-initdb.js.
import { register } from 'tsx/esm/api';

register();
await import('./embedded-initdb.ts');
