// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { GatehouseProvider } from './GatehouseProvider.js';
import { AuthorizedContent } from './gates.js';
import { useAuth } from './hooks.js';

function Who() {
  const { isAuthenticated, isLoading } = useAuth();
  return <p>{isAuthenticated ? 'signed in' : isLoading ? 'signed out (loading)' : 'signed out'}</p>;
}

describe('<GatehouseProvider> during server rendering', () => {
  it('renders its children signed out, gates closed, without touching window or document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const html = renderToString(
      <GatehouseProvider options={{ contextOptions: { baseUrl: 'https://id.example.com' } }} loaderScript={{ src: 'https://id.example.com/cdn/loader.js', integrity: 'sha384-x' }}>
        <Who />
        <AuthorizedContent requiredPermissions={['notes.write']} fallback={<i>fallback</i>}>
          <b>secret</b>
        </AuthorizedContent>
      </GatehouseProvider>,
    );
    expect(html).toBe('<p>signed out (loading)</p><i>fallback</i>');
  });
});
