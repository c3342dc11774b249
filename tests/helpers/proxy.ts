/**
 * What the CLI's proxy tests stand on: a CONNECT proxy on 127.0.0.1 written for the tests (it
 * records every CONNECT and may ask for a Basic login), a test CA made by openssl, and the
 * reference service behind TLS with that CA's certificate, reachable under a host name that does
 * not resolve, so only the proxy, which maps that name to it, can get there.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A host name that never resolves (RFC 6761): reachable only through the test proxy. */
export const PROXY_ONLY_HOST = 'reports.proxy-only.invalid';

export interface TestCertificates {
  /** The CA certificate (PEM file), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  key: string;
  cert: string;
  remove(): void;
}

/** A CA and a server certificate for PROXY_ONLY_HOST, localhost and 127.0.0.1, made by openssl. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-test-ca-'));
  const file = (name: string) => join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req', '-x509', ...ecKey, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2',
    '-subj', '/CN=ReportDesk proxy test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]); // prettier-ignore
  openssl([
    'req',
    ...ecKey,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    `/CN=${PROXY_ONLY_HOST}`,
  ]);
  writeFileSync(
    file('server.ext'),
    [
      `subjectAltName=DNS:${PROXY_ONLY_HOST},DNS:localhost,IP:127.0.0.1`,
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl([
    'x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
    '-CAcreateserial', '-out', file('server.pem'), '-days', '2', '-extfile', file('server.ext'),
  ]); // prettier-ignore
  return {
    caFile: file('ca.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function closeAll(server: { close(done: () => void): void }, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface TlsFront {
  port: number;
  stop(): Promise<void>;
}

/**
 * The reference service behind TLS: an HTTPS server on 127.0.0.1 passing every request on to the
 * service's plain-HTTP address, with the Host the service expects (it answers only requests
 * addressed to this computer, against DNS rebinding).
 */
export async function startTlsFront(
  certificates: TestCertificates,
  serviceBaseUrl: string,
): Promise<TlsFront> {
  const service = new URL(serviceBaseUrl);
  const sockets = new Set<Socket>();
  const server = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
    const upstream = httpRequest(
      {
        host: service.hostname,
        port: service.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: service.host },
      },
      (reply: IncomingMessage) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, stop: () => closeAll(server, sockets) };
}

export interface ConnectRecord {
  /** host:port as asked in the CONNECT line. */
  target: string;
  /** The Proxy-Authorization header, if any. */
  authorization?: string;
}

export interface TestProxy {
  port: number;
  /** Every CONNECT received, in order. */
  connects: ConnectRecord[];
  stop(): Promise<void>;
}

export interface TestProxyOptions {
  /** host:port → the loopback port it really is (PROXY_ONLY_HOST:443 → the TLS front). */
  routes?: Record<string, number>;
  /** Ask for this Basic login (407 otherwise), as a proxy with a password does. */
  login?: { user: string; password: string };
}

/**
 * A CONNECT proxy on 127.0.0.1: tunnels to a route, or to any loopback host:port, after checking
 * the login when it asks for one. Plain (non-CONNECT) proxy requests get 405.
 */
export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const connects: ConnectRecord[] = [];
  const sockets = new Set<Socket>();
  const expected = options.login
    ? `Basic ${Buffer.from(`${options.login.user}:${options.login.password}`).toString('base64')}`
    : undefined;
  const server = createHttpServer((_req, res) => {
    res.writeHead(405, { 'content-type': 'text/plain' });
    res.end('This test proxy only tunnels (CONNECT).');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const authorization = req.headers['proxy-authorization'];
    connects.push({ target, ...(authorization === undefined ? {} : { authorization }) });
    client.on('error', () => client.destroy());
    if (expected !== undefined && authorization !== expected) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const separator = target.lastIndexOf(':');
    const host = target.slice(0, separator);
    const routed = options.routes?.[target];
    const port = routed ?? Number(target.slice(separator + 1));
    if (routed === undefined && host !== 'localhost' && host !== '127.0.0.1') {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    let established = false;
    const upstream = connect(port, '127.0.0.1', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    // A route that cannot be reached is a 502, as a real proxy answers it.
    upstream.on('error', () =>
      established ? client.destroy() : client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, connects, stop: () => closeAll(server, sockets) };
}
