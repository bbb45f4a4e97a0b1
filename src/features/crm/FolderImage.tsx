// A folder's picture and background are private files: fetched with the Authorization header and
// shown as object URLs, fetched again when image_version changes.
import { useEffect, useState } from 'react';
import type { FolderImageKind, FolderSummary } from '../../../contract/crm';
import { fetchFolderImage } from '@/api/crm';

export function useFolderImage(folder: Pick<FolderSummary, 'id' | 'has_picture' | 'has_background' | 'image_version'>, kind: FolderImageKind): string | null {
  const present = kind === 'picture' ? folder.has_picture : folder.has_background;
  const key = `${folder.id}/${kind}/${folder.image_version}`;
  const [url, setUrl] = useState<{ key: string; url: string } | null>(null);
  useEffect(() => {
    if (!present) return undefined;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetchFolderImage(folder.id, kind).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl({ key, url: objectUrl });
      },
      () => {
        // The initial stays in its place.
      },
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [folder.id, kind, key, present]);
  return present && url?.key === key ? url.url : null;
}

/** The folder's picture, or its initial on a colour of its own. */
export function FolderAvatar({ folder, large = false }: { folder: Pick<FolderSummary, 'id' | 'name' | 'has_picture' | 'has_background' | 'image_version'>; large?: boolean }) {
  const src = useFolderImage(folder, 'picture');
  const hue = (folder.id * 47) % 360;
  return (
    <span className={`folder-avatar${large ? ' folder-avatar--large' : ''}`} style={{ ['--folder-hue' as string]: String(hue) }} aria-hidden="true">
      {src ? <img src={src} alt="" data-testid="folder-picture-image" /> : folder.name.trim().charAt(0).toUpperCase()}
    </span>
  );
}
