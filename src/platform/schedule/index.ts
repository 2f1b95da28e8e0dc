// Work due at a time, shared by every instance and kept across restarts (delivery retries, FS verdict checks).
export { ScheduledWork1766300000000 } from './migration.ts';
export { scheduleStore, type ClaimedWork, type Scheduled, type ScheduleStore } from './store.ts';
export { ScheduledWorker, type ScheduleHandler } from './worker.ts';
