import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpServerConfig } from '../../platform/config.ts';

/**
 * The service's HTTP server, with the client time limits: Node answers 408 and closes a connection
 * whose headers, or whole request (body included), have not arrived in time, and closes idle
 * keep-alive connections. Nothing here limits how long the service itself takes to answer.
 */
export function createHttpServer(handler: RequestListener, limits: HttpServerConfig): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // how often Node checks those two (its default, 30 s, would let a 30 s limit last a minute)
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  return server;
}
