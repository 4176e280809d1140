import { describe, expect, it } from 'vitest';
import { domainOfEmail, evaluateEmailDomain, normalizeDomain } from './email-domain-restrictions';
import { isPublicEmailDomain, publicEmailDomains } from './public-email-domains';

const active = (listType: 'ALLOW' | 'BLOCK', blockPublicDomains = false) => ({ active: true, listType, blockPublicDomains });

describe('normalizeDomain', () => {
  it('lower-cases, drops a trailing dot and writes international names in punycode', () => {
    expect(normalizeDomain(' Example.COM. ')).toBe('example.com');
    expect(normalizeDomain('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it.each(['@example.com', 'user@example.com', 'localhost', 'example', '-bad.com', 'bad-.com', 'a..com', '1.2.3.4', 'exa mple.com', `${'a'.repeat(64)}.com`, ''])(
    'refuses %j',
    (input) => {
      expect(normalizeDomain(input)).toBeNull();
    },
  );

  it('takes the domain of an address after its last @', () => {
    expect(domainOfEmail('"odd@local"@Sub.Example.com')).toBe('sub.example.com');
    expect(domainOfEmail('no-at-sign')).toBeNull();
  });
});

describe('evaluateEmailDomain', () => {
  it('lets everything in while inactive', () => {
    expect(evaluateEmailDomain({ active: false, listType: 'ALLOW', blockPublicDomains: true }, 'gmail.com', [])).toEqual({ allowed: true });
  });

  it('keeps out a domain covered by a BLOCK entry, whatever the list type', () => {
    expect(evaluateEmailDomain(active('BLOCK'), 'evil.example', [{ type: 'BLOCK' }])).toEqual({ allowed: false, reason: 'IN_BLOCKLIST' });
    expect(evaluateEmailDomain(active('ALLOW'), 'evil.example', [{ type: 'ALLOW' }, { type: 'BLOCK' }])).toEqual({ allowed: false, reason: 'IN_BLOCKLIST' });
    expect(evaluateEmailDomain(active('BLOCK'), 'fine.example', [])).toEqual({ allowed: true });
  });

  it('lets only allow-listed domains in under ALLOW', () => {
    expect(evaluateEmailDomain(active('ALLOW'), 'acme.example', [{ type: 'ALLOW' }])).toEqual({ allowed: true });
    expect(evaluateEmailDomain(active('ALLOW'), 'other.example', [])).toEqual({ allowed: false, reason: 'NOT_IN_ALLOWLIST' });
    expect(evaluateEmailDomain(active('ALLOW'), null, [])).toEqual({ allowed: false, reason: 'NOT_IN_ALLOWLIST' });
  });

  it('keeps public mail domains out when asked, unless the admin allow-listed that very domain', () => {
    expect(evaluateEmailDomain(active('BLOCK', true), 'gmail.com', [])).toEqual({ allowed: false, reason: 'PUBLIC_DOMAIN' });
    expect(evaluateEmailDomain(active('BLOCK', true), 'acme.example', [])).toEqual({ allowed: true });
    expect(evaluateEmailDomain(active('ALLOW', true), 'gmail.com', [{ type: 'ALLOW' }])).toEqual({ allowed: true });
  });
});

describe('public email domains', () => {
  it('ships the well-known free providers, lower case and without duplicates, and covers their subdomains', () => {
    const list = publicEmailDomains();
    expect(list.length).toBeGreaterThan(100);
    expect(new Set(list).size).toBe(list.length);
    for (const domain of list) expect(normalizeDomain(domain), domain).toBe(domain);
    for (const domain of ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'proton.me', 'mail.ru', 'qq.com']) expect(isPublicEmailDomain(domain), domain).toBe(true);
    expect(isPublicEmailDomain('eu.mail.yahoo.com')).toBe(true);
    expect(isPublicEmailDomain('gmail.com.attacker.example')).toBe(false);
    expect(isPublicEmailDomain('com')).toBe(false);
  });
});
