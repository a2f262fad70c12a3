// Builds the embeddable widget: one minified IIFE at dist/widget/widget.js with React inside,
// so an operator's site needs a single <script> tag and nothing else (DESIGN.md §8, §9).
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: {
    // React picks its production build from this; the browser has no `process`.
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'widget/src/element.tsx',
      formats: ['iife'],
      name: 'RecoveryQuoteWidget',
      fileName: () => 'widget.js',
    },
  },
});
