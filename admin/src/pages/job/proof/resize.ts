// Photos are made small on the phone before they are queued (docs/product.md, "Proof of
// condition"): the longest side at most PHOTO_MAX_SIDE as a JPEG (~300 KB rather than a camera's
// 5 MB), and a THUMBNAIL_MAX_SIDE thumbnail for the job report and the grids. Drawing on a canvas
// also leaves the camera's EXIF behind. A photo the browser cannot decode (HEIC on most browsers)
// is sent as it is, without a thumbnail: the server takes it and keeps it for the operator.
import { PHOTO_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '#shared/proof';

async function drawn(bitmap: ImageBitmap, maxSide: number, quality: number): Promise<Blob> {
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No canvas');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('No JPEG'))), 'image/jpeg', quality));
}

export async function photoForUpload(file: Blob): Promise<{ file: Blob; thumbnail?: Blob }> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { file };
  }
  try {
    return { file: await drawn(bitmap, PHOTO_MAX_SIDE, 0.82), thumbnail: await drawn(bitmap, THUMBNAIL_MAX_SIDE, 0.7) };
  } finally {
    bitmap.close();
  }
}

/** Where the phone is, if the driver lets it say, within a few seconds; never holds a photo up longer. */
export function currentPosition(): Promise<{ lat: number; lng: number } | undefined> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 4_000);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        clearTimeout(timer);
        resolve({ lat: p.coords.latitude, lng: p.coords.longitude });
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { maximumAge: 60_000, timeout: 4_000 },
    );
  });
}
