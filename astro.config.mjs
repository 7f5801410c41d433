// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';

// Every page is prerendered; the Hono server (src/server) serves dist/ and the API from one process.
export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [mdx(), react()],
  devToolbar: { enabled: false },
  server: { port: 4321, host: '127.0.0.1' },
  vite: {
    server: {
      // `npm run dev` serves pages with hot reload; the API comes from a server started with `npm start` on 4322.
      proxy: { '/api': process.env.API_PROXY ?? 'http://127.0.0.1:4322' },
    },
  },
});
