// Builds widget-vehicle.js, the number plate look-up the widget loads the first time a motorist
// types a registration (widget/src/vehicle-chunk.widget.ts): an ES module beside widget.js in
// dist/widget. It holds no React (the widget renders its component with its own) and no CSS
// (its classes are generated into widget.js's stylesheet with the rest of widget/src).
// Run after vite.widget.config.ts, which empties dist/widget.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export const VEHICLE_CHUNK_FILE = 'widget-vehicle.js';

export default defineConfig(({ command }) => {
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: 'dist/widget',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: {
        entry: 'widget/src/vehicle-lookup.tsx',
        formats: ['es'],
        fileName: () => VEHICLE_CHUNK_FILE,
      },
    },
  };
});
