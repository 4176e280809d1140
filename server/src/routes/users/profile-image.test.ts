import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';

/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describeDialects('profile image', (h) => {
  it('stores a PNG, serves it publicly with its type and shows it on me', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const res = await call(server, 'PUT', ApiPaths.profileImage, { token: accessToken, body: { profileImage: `data:image/png;base64,${PNG.toString('base64')}` } });
    expect(res.status).toBe(200);
    const url: string = res.body.profilePictureUrl;
    expect(url).toMatch(/^http:\/\/localhost:8787\/identity\/resources\/users\/v1\/profile-pictures\/[0-9a-f]{32}$/);
    const img = await server.fetch(new Request(url));
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await call(server, 'GET', ApiPaths.me, { token: accessToken })).body.profilePictureUrl).toBe(url);
    const cleared = await call(server, 'PUT', ApiPaths.me, { token: accessToken, body: { profilePictureUrl: null } });
    expect(cleared.body.profilePictureUrl).toBeNull();
    expect((await call(server, 'PUT', ApiPaths.me, { token: accessToken, body: { profilePictureUrl: 'https://evil.example/x.png' } })).status).toBe(400);
  });

  it('refuses bytes that do not match the declared type', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const res = await call(server, 'PUT', ApiPaths.profileImage, { token: accessToken, body: { profileImage: `data:image/png;base64,${html}` } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.invalidImage);
    const jpegAsPng = await call(server, 'PUT', ApiPaths.profileImage, { token: accessToken, body: { profileImage: `data:image/jpeg;base64,${PNG.toString('base64')}` } });
    expect(jpegAsPng.status).toBe(400);
  });

  it('refuses a value that is not a data URL, and callers without a token', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const res = await call(server, 'PUT', ApiPaths.profileImage, { token: accessToken, body: { profileImage: 'https://example.com/me.png' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^profileImage: /);
    expect((await call(server, 'PUT', ApiPaths.profileImage, { body: { profileImage: `data:image/png;base64,${PNG.toString('base64')}` } })).status).toBe(401);
    expect((await call(server, 'GET', `${ApiPaths.profilePicture}/${'0'.repeat(32)}`)).status).toBe(404);
  });
});
