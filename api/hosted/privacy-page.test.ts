// The operator's privacy page, /privacy/{slug}: the default notice naming the operator, their own
// notice once saved (escaped, in paragraphs), the page's CSP, and the links to it.
import { describe, expect, it } from 'vitest';
import { PRIVACY_TEXT_MAX } from '#shared/privacy';
import { updateCompany } from '../company/store';
import { createTestApp } from '../test/harness';

describe('GET /privacy/{slug}', () => {
  const t = createTestApp();

  async function operatorWithPage(slug: string) {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { customSlug: slug, email: 'office@carter.example' } });
    expect(res.status).toBe(200);
    return op;
  }

  it('shows a default notice naming the operator as the controller, with their address, what is kept, why, for how long, and the rights', async () => {
    const op = await operatorWithPage('privacy-default');
    updateCompany(t.deps.db, op.companyId, { name: 'Carter & <Sons> Recovery', retentionMonths: 12, businessAddress: 'Unit 4, Ring Road\nBirmingham B1 1AA' });
    const res = await t.raw('GET', '/privacy/privacy-default');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = res.text;
    expect(page).toContain('How Carter &amp; &lt;Sons&gt; Recovery uses your details');
    expect(page).not.toContain('<Sons>');
    expect(page).toContain('Carter &amp; &lt;Sons&gt; Recovery is the data controller');
    expect(page).toContain('Unit 4, Ring Road<br>Birmingham B1 1AA');
    expect(page).toContain('href="mailto:office@carter.example"');
    expect(page).toContain('href="tel:+447700900321"');
    expect(page).toContain('photos of the vehicle');
    expect(page).toContain('To give you a quote, to book and carry out your recovery');
    expect(page).toContain('RecoveryQuote, the platform that runs this page, processes your details for us');
    expect(page).toContain('Stripe');
    expect(page).toContain('kept for 12 months, then deleted.');
    expect(page).toContain('href="https://ico.org.uk/make-a-complaint/"');
    expect(page).toContain('href="/company/privacy-default"');
    // No script at all, and the inline stylesheet allowed by its hash only.
    expect(page).not.toContain('<script');
    expect(res.headers.get('content-security-policy')).toMatch(/style-src 'sha256-/);
    expect(res.headers.get('content-security-policy')).not.toContain("'unsafe-inline'");
  });

  it('shows the operator’s own notice, escaped, in paragraphs, with their contact details, once saved in the portal; blank brings the default back', async () => {
    const op = await operatorWithPage('privacy-own');
    const text = 'We are Carter.\nWe keep your details safe.\n\n<script>alert(1)</script> & "quotes"\n\n\n';
    const saved = await t.call('PUT', '/api/company', { token: op.token, body: { privacyText: text } });
    expect(saved.status).toBe(200);
    expect(saved.json.privacyText).toBe(text.trim());
    expect((await t.call('GET', '/api/company', { token: op.token })).json.privacyText).toBe(text.trim());

    const page = (await t.raw('GET', '/privacy/privacy-own')).text;
    expect(page).toContain('<p>We are Carter.<br>We keep your details safe.</p>');
    expect(page).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p>');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('is the data controller');
    expect(page).toContain('href="mailto:office@carter.example"');

    const cleared = await t.call('PUT', '/api/company', { token: op.token, body: { privacyText: '   \n ' } });
    expect(cleared.json.privacyText).toBeNull();
    expect((await t.raw('GET', '/privacy/privacy-own')).text).toContain('is the data controller');
  });

  it('refuses a notice over the limit, or from a dispatcher, changing nothing', async () => {
    const op = await operatorWithPage('privacy-limits');
    const long = await t.call('PUT', '/api/company', { token: op.token, body: { privacyText: 'x'.repeat(PRIVACY_TEXT_MAX + 1) } });
    expect(long.status).toBe(400);
    expect(long.json.fields.privacyText).toBe(`Must be at most ${PRIVACY_TEXT_MAX} characters`);
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { privacyText: 'x'.repeat(PRIVACY_TEXT_MAX) } })).status).toBe(200);
    const dispatcher = await t.teammate(op, 'dispatcher');
    expect((await t.call('PUT', '/api/company', { token: dispatcher.token, body: { privacyText: 'Not mine to say' } })).status).toBe(403);
    expect((await t.call('GET', '/api/company', { token: op.token })).json.privacyText).toBe('x'.repeat(PRIVACY_TEXT_MAX));
  });

  it('is a 404 page for an unknown custom URL', async () => {
    const res = await t.raw('GET', '/privacy/no-such-company');
    expect(res.status).toBe(404);
    expect(res.text).toContain('404 Page Not Found');
  });

  it('is linked from the footer of the company’s hosted page', async () => {
    await operatorWithPage('privacy-footer');
    const page = (await t.raw('GET', '/company/privacy-footer')).text;
    expect(page).toContain('<a href="/privacy/privacy-footer">Privacy Policy</a>');
  });
});
