import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('Slack app settings', () => {
  it("leave the Slack app unset with Slack's own endpoints by default", () => {
    expect(loadConfig({}).slack).toEqual({
      clientId: null,
      clientSecret: null,
      apiBaseUrl: 'https://slack.com/api',
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
      redirectUrl: null,
    });
  });

  it('read the credentials, the API base without its trailing slash, the authorize page and the redirect URL', () => {
    const slack = loadConfig({
      SLACK_CLIENT_ID: ' 123.456 ',
      SLACK_CLIENT_SECRET: 'shh',
      SLACK_API_BASE_URL: 'http://127.0.0.1:9999/api/',
      SLACK_OAUTH_AUTHORIZE_URL: 'http://127.0.0.1:9999/oauth/v2/authorize',
      SLACK_REDIRECT_URL: 'https://portal.example.com/connectivity/slack',
    }).slack;
    expect(slack).toEqual({
      clientId: '123.456',
      clientSecret: 'shh',
      apiBaseUrl: 'http://127.0.0.1:9999/api',
      authorizeUrl: 'http://127.0.0.1:9999/oauth/v2/authorize',
      redirectUrl: 'https://portal.example.com/connectivity/slack',
    });
  });

  it('refuse half an app: a client id without its secret, or the reverse, naming the missing one', () => {
    expect(() => loadConfig({ SLACK_CLIENT_ID: '123.456' })).toThrow(ConfigError);
    expect(() => loadConfig({ SLACK_CLIENT_ID: '123.456' })).toThrow(/SLACK_CLIENT_SECRET is not set/);
    expect(() => loadConfig({ SLACK_CLIENT_SECRET: 'shh' })).toThrow(/SLACK_CLIENT_ID is not set/);
  });

  it('refuse an API base that is not an http(s) URL', () => {
    expect(() => loadConfig({ SLACK_API_BASE_URL: 'ftp://slack.example.com' })).toThrow(/SLACK_API_BASE_URL must be an http\(s\) URL/);
  });
});
