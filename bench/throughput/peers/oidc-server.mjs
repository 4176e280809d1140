// node-oidc-provider as the bench's client_credentials peer: its default memory adapter, one
// confidential client allowed the client_credentials grant, and ES256-signed JWT access tokens for a
// single resource server (resource indicators), the same token format as Gatehouse's.
// Environment: PORT, PEERS_DIR (bench/.peers), BENCH_CLIENT_ID, BENCH_CLIENT_SECRET.
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(`${process.env.PEERS_DIR}/package.json`);
const { default: Provider } = await import(pathToFileURL(require.resolve('oidc-provider')).href);

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const RESOURCE = 'urn:gatehouse-bench:api';
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-es256', alg: 'ES256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: [{
    client_id: process.env.BENCH_CLIENT_ID,
    client_secret: process.env.BENCH_CLIENT_SECRET,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: 'ES256',
    scope: 'api',
  }],
  jwks: { keys: [jwk] },
  scopes: ['api'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'api', audience: RESOURCE, accessTokenTTL: 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
    },
  },
});
provider.listen(port, '127.0.0.1');
