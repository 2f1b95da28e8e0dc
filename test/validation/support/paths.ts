// Shared locations for the validation tests.
import path from 'node:path';
import { defaultArtifactsDir, defaultCacheDir } from '../../../src/validation/artifacts.ts';

export const ARTIFACTS = defaultArtifactsDir();
export const CACHE = defaultCacheDir();
export const artifact = (...parts: string[]): string => path.join(ARTIFACTS, ...parts);
