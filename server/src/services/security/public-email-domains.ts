/**
 * Well-known free and public mail providers: the domains an email-domain restriction with
 * `blockPublicDomains` keeps out (issue 12). Anyone can get an address at these, so an address there
 * says nothing about which organisation someone belongs to. Lower case; a subdomain of one of them
 * counts as it (mail.yahoo.com is yahoo.com's).
 */
const PUBLIC_EMAIL_DOMAINS: readonly string[] = [
  // Google, Microsoft, Apple, Yahoo, AOL
  'gmail.com', 'googlemail.com',
  'outlook.com', 'outlook.fr', 'outlook.de', 'outlook.es', 'outlook.it', 'outlook.jp', 'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'hotmail.de',
  'hotmail.es', 'hotmail.it', 'live.com', 'live.co.uk', 'live.fr', 'live.de', 'msn.com', 'passport.com',
  'icloud.com', 'me.com', 'mac.com',
  'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.es', 'yahoo.it', 'yahoo.co.jp', 'yahoo.com.br', 'yahoo.co.in', 'ymail.com', 'rocketmail.com',
  'aol.com', 'aim.com', 'verizon.net',
  // Privacy-focused and independent providers
  'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me', 'tutanota.com', 'tutanota.de', 'tuta.io', 'tutamail.com', 'fastmail.com', 'fastmail.fm',
  'hushmail.com', 'mailfence.com', 'posteo.de', 'posteo.net', 'disroot.org', 'runbox.com', 'startmail.com', 'zoho.com', 'zohomail.com',
  'mail.com', 'email.com', 'usa.com', 'inbox.com', 'gmx.com', 'gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'web.de', 'freenet.de', 't-online.de',
  // Europe
  'orange.fr', 'wanadoo.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'seznam.cz',
  'wp.pl', 'o2.pl', 'onet.pl', 'interia.pl', 'btinternet.com', 'sky.com', 'virginmedia.com', 'ntlworld.com', 'talktalk.net', 'bluewin.ch',
  'telenet.be', 'skynet.be', 'ziggo.nl', 'kpnmail.nl', 'planet.nl',
  // Russia, Asia, Latin America
  'mail.ru', 'inbox.ru', 'list.ru', 'bk.ru', 'yandex.ru', 'yandex.com', 'ya.ru', 'rambler.ru',
  'qq.com', '163.com', '126.com', 'yeah.net', 'sina.com', 'sina.cn', 'sohu.com', 'aliyun.com', 'naver.com', 'daum.net', 'hanmail.net',
  'rediffmail.com', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'ig.com.br',
  // North America ISPs
  'comcast.net', 'att.net', 'sbcglobal.net', 'bellsouth.net', 'cox.net', 'charter.net', 'earthlink.net', 'shaw.ca', 'rogers.com', 'sympatico.ca',
];

const publicDomains = new Set(PUBLIC_EMAIL_DOMAINS);

/** The shipped list, for the documentation and the portal. */
export function publicEmailDomains(): readonly string[] {
  return PUBLIC_EMAIL_DOMAINS;
}

/** Whether `domain` (lower case) is a public mail provider's, or a subdomain of one. */
export function isPublicEmailDomain(domain: string): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (publicDomains.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
