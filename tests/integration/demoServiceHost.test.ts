/**
 * DNS rebinding against the demo service: a web page on attacker.example whose name is made to
 * resolve to 127.0.0.1 reaches the demo service with its own Host header and the published demo
 * key. Real HTTP on 127.0.0.1; node:http because fetch does not let a caller choose the Host.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startDemoService, type DemoService } from '../../electron/demo-service/server';

let service: DemoService;
let port: number;

beforeAll(async () => {
  service = await startDemoService();
  port = Number(new URL(service.baseUrl).port);
});
afterAll(() => service.stop());

function send(
  host: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          Host: host,
          Authorization: `Bearer ${DEMO_API_KEY}`,
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a DNS-rebinding page using the published demo key', () => {
  it('cannot read the demo account under its own host name (421)', async () => {
    const reply = await send(`attacker.example:${port}`, 'GET', '/api/v1/account');
    expect(reply.status).toBe(421);
    expect(reply.text).toContain('only answers requests addressed to localhost or 127.0.0.1');
    expect(reply.text).not.toContain('"email"');
  });

  it('cannot delete a demo report under its own host name', async () => {
    const before = service.reportCount();
    const list = await send(`127.0.0.1:${port}`, 'GET', '/api/v1/reports');
    const id = (JSON.parse(list.text) as { data: { id: number }[] }).data[0].id;
    const reply = await send(`rebind.attacker.example`, 'DELETE', `/api/v1/reports/${id}`);
    expect(reply.status).toBe(421);
    expect(service.reportCount()).toBe(before);
  });

  it('cannot pass with a look-alike name (127.0.0.1.attacker.example, localhost.attacker.example)', async () => {
    for (const host of ['127.0.0.1.attacker.example', 'localhost.attacker.example']) {
      expect((await send(host, 'GET', '/api/v1/account')).status).toBe(421);
    }
  });

  it('the app and CLI, addressing it as a loopback name, are still answered', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await send(host, 'GET', '/api/v1/account')).status).toBe(200);
    }
    // And through the ordinary client path (Node's fetch sets Host from the URL).
    const reply = await fetch(`${service.baseUrl}/api/v1/account`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(reply.status).toBe(200);
  });

  it('refuses to listen on an address other machines can reach', async () => {
    await expect(startDemoService({ host: '0.0.0.0' })).rejects.toThrow(/only listens on this computer/);
  });
});
