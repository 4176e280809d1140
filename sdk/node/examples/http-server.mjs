// A node:http host protected by @gatehouse/node (the README's first example). Run with
// GATEHOUSE_BASE_URL, GATEHOUSE_CLIENT_ID and ACCESS_TOKEN (a user's access token) set: it checks
// the environment, verifies the token, serves one guarded route, calls it without and with the
// token, and prints what it saw as JSON.
import { createServer } from 'node:http';
import { checkEnvironment, verifyAccessToken } from '@gatehouse/node';
import { requireAuth } from '@gatehouse/node/http';

const env = checkEnvironment(process.env, { session: false });
const claims = await verifyAccessToken(process.env.ACCESS_TOKEN ?? '', { baseUrl: env.baseUrl, clientId: env.clientId });

const server = createServer(
  requireAuth()((req, res, auth) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hello: auth.sub }));
  }),
);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const anonymous = await fetch(url);
const signedIn = await fetch(url, { headers: { authorization: `Bearer ${process.env.ACCESS_TOKEN}` } });
console.log(JSON.stringify({ sub: claims.sub, anonymous: [anonymous.status, await anonymous.json()], signedIn: [signedIn.status, await signedIn.json()] }));
server.close();
