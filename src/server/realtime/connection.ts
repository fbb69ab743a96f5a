import type { WebSocket } from 'ws';
import { frame } from './protocol.js';
import { newSocketId } from './signing.js';

export interface Liveness {
  activityTimeoutSeconds: number;
  pongTimeoutSeconds: number;
}

/**
 * One client socket: its id, what it joined, who it signed in as, and whether it is still alive. A socket
 * that goes quiet gets a `pusher:ping`; one that does not answer is closed, so a vanished laptop does not
 * stay on a presence channel for ever.
 */
export class Connection {
  readonly socketId = newSocketId();
  /** Joined channels; for presence channels, the user id this socket is present as. */
  readonly channels = new Map<string, string | undefined>();
  /** Set by `pusher:signin`. */
  userId: string | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly liveness: Liveness,
  ) {
    this.touch();
  }

  /** Any frame from the client proves it is alive. */
  touch(): void {
    this.stopTimers();
    this.idleTimer = setTimeout(() => {
      this.send(frame('pusher:ping', {}));
      this.pongTimer = setTimeout(
        () => this.close(4201, 'Pong reply not received'),
        this.liveness.pongTimeoutSeconds * 1000,
      );
      this.pongTimer.unref();
    }, this.liveness.activityTimeoutSeconds * 1000);
    this.idleTimer.unref();
  }

  send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  close(code: number, reason: string): void {
    this.stopTimers();
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  /** Resolves once the socket is closed; a peer that ignores the closing handshake is cut off. */
  closed(graceMs: number): Promise<void> {
    if (this.ws.readyState === this.ws.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, graceMs);
      this.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  stopTimers(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.pongTimer);
  }
}
