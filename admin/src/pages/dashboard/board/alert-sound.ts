// The new-booking sound (docs/product.md §23): two short tones made by the browser's Web Audio,
// so no sound file is downloaded. A browser that blocks sound until the page is touched stays
// silent until then; the banner and the title's count still show.
let context: AudioContext | undefined;

export function playNewBookingSound(): void {
  try {
    context ??= new AudioContext();
    const ctx = context;
    void ctx.resume().catch(() => undefined);
    for (const [offset, frequency] of [
      [0, 880],
      [0.25, 1175],
    ] as const) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, ctx.currentTime + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + offset + 0.2);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(ctx.currentTime + offset);
      oscillator.stop(ctx.currentTime + offset + 0.2);
    }
  } catch {
    // No Web Audio (an old browser, a test): the banner and the title still say it.
  }
}
