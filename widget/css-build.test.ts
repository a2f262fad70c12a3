// The widget build's stylesheet step (vite.widget.config.ts): sizes fixed in pixels whatever the
// host page's root font size, and the same look in fewer bytes of widget.js.
import { expect, it } from 'vitest';
import { inPixels } from '../vite.widget.config';

it('turns rem sizes into pixels at 16 px a rem', () => {
  expect(inPixels('.a{font-size:.875rem;margin:1.5rem}')).toBe('.a{font-size:14px;margin:24px}');
});

it("works a spacing utility's calc() out against the theme's --spacing, negative and fractional ones too", () => {
  const css = ':host{--spacing:.25rem}.mt-4{margin-top:calc(var(--spacing) * 4)}.-mx-2{margin-inline:calc(var(--spacing) * -2)}.gap-1\\.5{gap:calc(var(--spacing)*1.5)}.p-1{padding:var(--spacing)}';
  expect(inPixels(css)).toBe(':host{--spacing:4px}.mt-4{margin-top:16px}.-mx-2{margin-inline:-8px}.gap-1\\.5{gap:6px}.p-1{padding:4px}');
});

it('leaves calc() alone when the stylesheet declares no --spacing', () => {
  expect(inPixels('.mt-4{margin-top:calc(var(--spacing) * 4)}')).toBe('.mt-4{margin-top:calc(var(--spacing) * 4)}');
});

it('gives lab() colours one decimal place, and touches no oklab() or other numbers', () => {
  const css = ':host{--c:lab(98.1434% -.369519 -1.05966);--d:lab(28.5139% 44.5539 29.0463)}@supports (color:lab(0% 0 0)){}.x{color:color-mix(in oklab,oklab(0.512345 0.1 0.2) 50%,red);opacity:.123456}';
  expect(inPixels(css)).toBe(':host{--c:lab(98.1% -.4 -1.1);--d:lab(28.5% 44.6 29)}@supports (color:lab(0% 0 0)){}.x{color:color-mix(in oklab,oklab(0.512345 0.1 0.2) 50%,red);opacity:.123456}');
});
