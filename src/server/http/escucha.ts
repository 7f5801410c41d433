/**
 * How a server socket of the portal listens (HTTP and SFTP alike). One process: as usual. A worker
 * of WORKERS processes binds the port itself beside the others (`reusePort`, Linux's SO_REUSEPORT:
 * the kernel spreads new connections over the live sockets) instead of taking connections the
 * cluster's primary accepts and hands over, which left a connection handed to a worker killed
 * before taking it open and unanswered until the client gave up (docs/decisions/047).
 */
import cluster from 'node:cluster';

/** The options a server's `listen` adds in this process. */
export function opcionesDeEscucha(): { exclusive?: boolean; reusePort?: boolean } {
  return cluster.isWorker ? { exclusive: true, reusePort: true } : {};
}
