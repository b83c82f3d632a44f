import net from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis in the tests), to cut the line or make it go silent the way
 * a network failure does, without touching the server others share.
 */
export interface TcpProxy {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** How many client connections are open through it. */
  connections(): number;
  /** Drops every connection and stops accepting new ones (the server looks down). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  /** Keeps connections open but forwards nothing more either way (the server looks hung). */
  silence(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    clients.add(client);
    client.on('close', () => clients.delete(client));
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
    }
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const port = await listen(0);
  return {
    port,
    connections: () => clients.size,
    cut: stop,
    async restore() {
      silent = false;
      await listen(port);
    },
    silence() {
      silent = true;
    },
    close: stop,
  };
}
