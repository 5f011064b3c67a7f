import { Typography } from '@portal/shared/ui/extra';
import { ImageInput, type ImageInputProps } from '../../../app/image-input';

const box = {
  width: 160,
  height: 64,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  border: '1px dashed #d9d9d9',
  borderRadius: 6,
};

const TEXTS = {
  choose: 'Choose a logo',
  chooseAnother: 'Choose another logo',
  keepCurrent: 'Keep the current logo',
  deleteTitle: 'Delete the company logo?',
  deleteDescription: "The company's name is shown instead.",
  deleteButton: 'Delete logo',
};

/** The company logo, shown in a box (the company's name stands in where there is none). */
export function LogoInput({ companyName, ...field }: ImageInputProps & { companyName: string }) {
  return (
    <ImageInput
      {...field}
      texts={TEXTS}
      preview={(preview) => {
        const shown = preview ?? field.currentUrl;
        return (
          <div style={box}>
            {shown ? (
              <img
                src={shown}
                alt={preview ? 'New logo preview' : `${companyName} logo`}
                style={{ maxWidth: 156, maxHeight: 60 }}
              />
            ) : (
              <Typography.Text type="secondary">No logo</Typography.Text>
            )}
          </div>
        );
      }}
    />
  );
}
