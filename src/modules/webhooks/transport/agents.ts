import http from 'node:http';
import https from 'node:https';

export interface AgentLimits {
  /** sockets per agent (one agent per endpoint), in use and idle together */
  maxSockets?: number;
  /** an idle keep-alive socket is closed after this (a server's shorter Keep-Alive hint wins) */
  idleTimeoutMs?: number;
}

export const DEFAULT_MAX_SOCKETS = 8;
const DEFAULT_IDLE_TIMEOUT_MS = 15_000;

/**
 * Keep-alive agents, one per key (the endpoint id, say) and protocol, so each endpoint reuses its
 * own sockets and never holds more than `maxSockets`. Node keys pooled sockets by the connected
 * host, which the sender sets to the pinned address: a socket is reused only for that address.
 */
export class WebhookAgents {
  private readonly agents = new Map<string, http.Agent>();
  private readonly maxSockets: number;
  private readonly idleTimeoutMs: number;

  constructor(limits: AgentLimits = {}) {
    this.maxSockets = limits.maxSockets ?? DEFAULT_MAX_SOCKETS;
    this.idleTimeoutMs = limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  }

  for(key: string, protocol: 'http:' | 'https:'): http.Agent {
    const id = `${protocol}${key}`;
    let agent = this.agents.get(id);
    if (!agent) {
      const options: http.AgentOptions = {
        keepAlive: true,
        maxSockets: this.maxSockets,
        maxTotalSockets: this.maxSockets,
        maxFreeSockets: this.maxSockets,
        timeout: this.idleTimeoutMs,
        scheduling: 'lifo', // keep few sockets warm rather than all of them lukewarm
      };
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(id, agent);
    }
    return agent;
  }

  /** Closes an endpoint's sockets (deactivated, or its address changed); requests in flight fail as connection errors. */
  destroy(key: string): void {
    for (const protocol of ['http:', 'https:'] as const) {
      const id = `${protocol}${key}`;
      this.agents.get(id)?.destroy();
      this.agents.delete(id);
    }
  }

  destroyAll(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  get size(): number {
    return this.agents.size;
  }
}
