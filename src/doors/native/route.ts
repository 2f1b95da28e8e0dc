import type { Actor } from '../../../commands/shared/actor.ts';
import { routeDeclarer, type Caller as PlatformCaller, type ResolveCaller as PlatformResolveCaller, type Route as PlatformRoute } from '../../platform/http/index.ts';

/* The native API's routes: the platform's, with the domain's Actor as the caller. */

export type Route = PlatformRoute<Actor>;
export type Caller = PlatformCaller<Actor>;
export type ResolveCaller = PlatformResolveCaller<Actor>;
export const defineRoute = routeDeclarer<Actor>();
