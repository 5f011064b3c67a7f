import { Avatar } from '@portal/shared/ui/menus';
import { ImageInput, type ImageInputProps } from '../../../app/image-input';

const TEXTS = {
  choose: 'Choose an image',
  chooseAnother: 'Choose another image',
  keepCurrent: 'Keep the current avatar',
  deleteTitle: 'Delete your avatar?',
  deleteDescription: 'Your initials are shown instead.',
  deleteButton: 'Delete avatar',
};

/** The avatar of the profile form, its initials shown where there is no image. */
export function AvatarInput({ initials, ...field }: ImageInputProps & { initials: string }) {
  return (
    <ImageInput
      {...field}
      texts={TEXTS}
      preview={(preview) => (
        <Avatar
          size={64}
          src={preview ?? field.currentUrl ?? undefined}
          alt={preview ? 'New avatar preview' : 'Your avatar'}
        >
          {initials}
        </Avatar>
      )}
    />
  );
}
