/** Builds the checkout as a module-federation remote; the shared settings live in the root config. */
import { defineConfig } from 'vite';
import { remoteBundleConfig } from '../vite.config.ts';

export default defineConfig(remoteBundleConfig(import.meta.dirname, 'checkout'));
