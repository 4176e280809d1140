import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { GatehouseProvider } from '@gatehouse/react';
import { App } from './App';
import { routes } from './routes';
import './styles.css';

interface DemoConfig { baseUrl: string; clientId: string; loaderSrc: string; loaderIntegrity: string; nonce: string }
const config = JSON.parse(document.getElementById('gatehouse-demo-config')!.textContent!) as DemoConfig;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <GatehouseProvider
      options={{
        contextOptions: { baseUrl: config.baseUrl, clientId: config.clientId },
        authOptions: { routes },
        nonce: config.nonce,
        entitlementsOptions: { enabled: true },
        adminPortal: { navigation: { roles: { visibility: 'byPermissions' }, groups: { visibility: 'byPermissions' } } },
      }}
      loaderScript={{ src: config.loaderSrc, integrity: config.loaderIntegrity, nonce: config.nonce }}
    >
      <App />
    </GatehouseProvider>
  </StrictMode>,
);
