// Server rendering with @gatehouse/react: children render signed out, gates closed, no window touched.
// Run: node server-render.mjs
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { AuthorizedContent, GatehouseProvider, useAuth } from '@gatehouse/react';

function Who() {
  const { isAuthenticated, isLoading } = useAuth();
  return h('p', null, isAuthenticated ? 'signed in' : isLoading ? 'loading' : 'signed out');
}

const html = renderToString(
  h(
    GatehouseProvider,
    {
      options: { contextOptions: { baseUrl: 'https://id.example.com', clientId: 'my-app' } },
      loaderScript: { src: 'https://id.example.com/cdn/loader/7.78.0/gatehouse.js', integrity: 'sha384-example' },
    },
    h(Who),
    h(AuthorizedContent, { requiredPermissions: ['notes.write'], fallback: h('i', null, 'no access') }, h('b', null, 'secret')),
  ),
);
console.log(html);
