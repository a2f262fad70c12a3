// The motorist signs on the driver's screen with a finger (docs/product.md, "Proof of condition"):
// a canvas that keeps the strokes, cleared on demand, handed over as a PNG.
import { useImperativeHandle, useRef, type Ref } from 'react';

export interface SignaturePadHandle {
  /** The signature as a PNG, or null when nothing has been drawn. */
  png(): Promise<Blob | null>;
  clear(): void;
}

export function SignaturePad({ ref, label }: { ref: Ref<SignaturePadHandle>; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const drawn = useRef(false);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const scaleX = event.currentTarget.width / box.width;
    const scaleY = event.currentTarget.height / box.height;
    return { x: (event.clientX - box.left) * scaleX, y: (event.clientY - box.top) * scaleY };
  };

  useImperativeHandle(ref, () => ({
    png: () =>
      new Promise((resolve) => {
        if (!drawn.current || !canvas.current) return resolve(null);
        canvas.current.toBlob((blob) => resolve(blob), 'image/png');
      }),
    clear() {
      const c = canvas.current;
      c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
      drawn.current = false;
    },
  }));

  return (
    <canvas
      ref={canvas}
      width={680}
      height={260}
      role="img"
      aria-label={label}
      className="h-[130px] w-full touch-none rounded-lg border-2 border-dashed border-slate-400 bg-white"
      onPointerDown={(event) => {
        const context = event.currentTarget.getContext('2d');
        if (!context) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        drawing.current = true;
        const { x, y } = point(event);
        context.lineWidth = 4;
        context.lineCap = 'round';
        context.strokeStyle = '#0f172a';
        context.beginPath();
        context.moveTo(x, y);
      }}
      onPointerMove={(event) => {
        if (!drawing.current) return;
        const context = event.currentTarget.getContext('2d');
        const { x, y } = point(event);
        context?.lineTo(x, y);
        context?.stroke();
        drawn.current = true;
      }}
      onPointerUp={() => {
        drawing.current = false;
      }}
    />
  );
}
