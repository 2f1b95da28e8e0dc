import { expect } from 'chai';
import { createApp } from '../../src/doors/native/app.ts';
import { mayReadMetrics } from '../../src/platform/metrics/endpoint.ts';
import { listen } from '../api/support/http.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** One sample's value from the Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (match[2] ?? '').includes(`${k}="${v}"`));
    if (has) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics: Prometheus text of what operators watch', function () {
  this.timeout(180_000);

  describe('who may read it', () => {
    it('without METRICS_TOKEN: loopback peers only (IPv4, IPv6, v4-mapped)', () => {
      for (const peer of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(mayReadMetrics(undefined, peer, undefined), peer).to.equal(true);
      for (const peer of ['10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', '2001:db8::1', '']) expect(mayReadMetrics(undefined, peer, undefined), peer).to.equal(false);
    });

    it('with METRICS_TOKEN: only its bearer, from anywhere; loopback without it is refused', () => {
      expect(mayReadMetrics('s3cret', '10.0.0.1', 'Bearer s3cret')).to.equal(true);
      expect(mayReadMetrics('s3cret', '10.0.0.1', 'bearer s3cret')).to.equal(true);
      expect(mayReadMetrics('s3cret', '127.0.0.1', undefined)).to.equal(false);
      expect(mayReadMetrics('s3cret', '127.0.0.1', 'Bearer s3cre')).to.equal(false);
      expect(mayReadMetrics('s3cret', '127.0.0.1', 's3cret')).to.equal(false);
    });
  });

  describe('on a running service', () => {
    let svc: TestService;
    before(async () => (svc = await startTestService({ rateLimit: true })));
    after(async () => svc?.close());
    const metrics = async () => {
      const res = await fetch(`${svc.root}/metrics`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      return res.text();
    };

    it('counts requests by route template, not by path, and appends, reactions, validation stages, lag', async () => {
      const company = svc.demo.companies[0]!;
      const buyer = svc.demo.companies[1]!;
      const created = await svc.call('POST', `/companies/${company.id}/invoices`, {
        issue_date: '2026-11-20', due_date: '2026-12-04',
        buyer: { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id, street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
        lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect((await svc.call('POST', `/companies/${company.id}/invoices/${created.body.id}/send`)).status).to.equal(202);
      // the reaction schedules the Peppol leg; the scheduled attempt validates the document, then sends it
      await eventually(async () => (await svc.call('GET', `/companies/${company.id}/invoices/${created.body.id}`)).body.status as string, (s) => s !== 'queued', { what: 'the Peppol leg done' });
      const text = await eventually(metrics, (t) => (sample(t, 'reactor_reactions_total', { reactor: 'peppol-delivery', outcome: 'done' }) ?? 0) >= 1, { what: 'the Peppol leg scheduled' });

      expect(sample(text, 'http_request_duration_seconds_count', { door: 'native', method: 'POST', route: '/api/v1/companies/:company_id/invoices', status: '201' })).to.be.at.least(1);
      expect(text).not.to.include(created.body.id); // no series per invoice
      expect(sample(text, 'eventstore_appends_total')).to.be.greaterThan(0);
      expect(sample(text, 'eventstore_appended_event_types_total', { type: 'InvoiceCreated' })).to.be.at.least(1);
      expect(sample(text, 'validation_stage_duration_seconds_count')).to.be.greaterThan(0);
      expect(sample(text, 'validation_pool_in_flight')).to.equal(0);
      expect(sample(text, 'follower_lag_events', { kind: 'projector', name: 'invoices' })).to.be.a('number');
      expect(sample(text, 'follower_lag_seconds', { kind: 'reactor', name: 'peppol-delivery' })).to.be.a('number');
      expect(sample(text, 'process_cpu_seconds_total')).to.be.a('number');
    });

    it('counts webhook delivery attempts by outcome', async () => {
      const made = await svc.call('POST', '/connect/webhooks', { url: 'http://127.0.0.1:9/never' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      await svc.call('POST', `/connect/webhooks/${made.body.id}/test`);
      await eventually(metrics, (t) => (sample(t, 'webhook_delivery_attempts_total', { outcome: 'connection' }) ?? 0) >= 1, { what: 'a failed attempt counted' });
    });

    it('asks for METRICS_TOKEN when one is set', async () => {
      const server = await listen(createApp({ ...svc.services, config: { ...svc.services.config, metricsToken: 'scrape-me' } }));
      try {
        const without = await fetch(`${server.base}/metrics`);
        expect(without.status).to.equal(401);
        expect(without.headers.get('www-authenticate')).to.match(/^Bearer/);
        const withToken = await fetch(`${server.base}/metrics`, { headers: { authorization: 'Bearer scrape-me' } });
        expect(withToken.status).to.equal(200);
        expect(await withToken.text()).to.include('http_request_duration_seconds');
      } finally {
        await server.close();
      }
    });

    // last: it empties the demo key's bucket
    it('counts the SAPI-SK door apart, and 429s by door', async () => {
      await fetch(`${svc.root}/sapi/document/status/x`);
      let refused = false;
      for (let i = 0; i < 2000 && !refused; i++) refused = (await svc.call('GET', '/api-keys')).status === 429;
      expect(refused, 'the limiter refused').to.equal(true);
      const text = await metrics();
      expect(sample(text, 'http_request_duration_seconds_count', { door: 'sapi', status: '401' })).to.be.at.least(1);
      expect(sample(text, 'rate_limit_refusals_total', { door: 'native' })).to.be.at.least(1);
    });
  });
});
