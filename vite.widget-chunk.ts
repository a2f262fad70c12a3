// The build of one of the widget's lazily loaded files (widget-vehicle.js, widget-booking.js): an
// ES module beside widget.js in dist/widget, fetched from the API's origin on first use. It holds
// no React (the widget renders what it hands back with its own) and no CSS (its classes are
// generated into widget.js's stylesheet with the rest of widget/src). Run after
// vite.widget.config.ts, which empties dist/widget.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export const widgetChunkConfig = (entry: string, fileName: string) =>
  defineConfig(({ command }) => {
    // A build is a production build whatever NODE_ENV says (why: vite.widget.config.ts).
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
        lib: { entry, formats: ['es'], fileName: () => fileName },
      },
    };
  });
