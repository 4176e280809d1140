import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { fieldVisibility, type FieldVisibility, type ProfileField } from '../options';
import { Avatar } from '../user-badge';
import { changedFields, draftFromUser, validateChanges, type EditableProfileField, type ProfileDraft, type ProfileErrors } from './profile-changes';
import { isUploadableImage, PROFILE_IMAGE_TYPES, profileImageProblem } from './profile-image';
import type { SectionProps } from './section-props';

const TEXT_FIELDS: { field: EditableProfileField; label: string; type: 'text' | 'tel'; autoComplete: string; maxLength: number }[] = [
  { field: 'name', label: 'Name', type: 'text', autoComplete: 'name', maxLength: 200 },
  { field: 'phoneNumber', label: 'Phone number', type: 'tel', autoComplete: 'tel', maxLength: 32 },
  { field: 'address', label: 'Address', type: 'text', autoComplete: 'street-address', maxLength: 500 },
  { field: 'jobTitle', label: 'Job title', type: 'text', autoComplete: 'organization-title', maxLength: 200 },
];

function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return "We're facing some difficulties, Please try again";
}

/** Profile section: edit name, phone number, address, job title and picture of the signed-in user. */
export default function ProfileSection({ title, headingId, user, snapshot, store, options }: SectionProps) {
  const visibility = (field: ProfileField): FieldVisibility => fieldVisibility(options, 'profile', field);
  const editable = TEXT_FIELDS.map(({ field }) => field).filter((field) => visibility(field) === 'editable');

  const [draft, setDraft] = useState<ProfileDraft>(() => draftFromUser(user));
  const [fieldErrors, setFieldErrors] = useState<ProfileErrors>({});
  const [image, setImage] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Which outcome to show: the store's profile flags may be left over from an earlier save.
  const [outcome, setOutcome] = useState<'none' | 'sent' | 'unchanged'>('none');
  const [thrown, setThrown] = useState<string | null>(null);
  const readerRef = useRef<FileReader | null>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  // Fields whose stored value changed (a save, another tab) take the new value; other edits stay,
  // so a token refresh that replaces the user object never wipes what is being typed.
  const baselineRef = useRef(draftFromUser(user));
  useEffect(() => {
    const previous = baselineRef.current;
    const next = draftFromUser(user);
    baselineRef.current = next;
    const moved = (Object.keys(next) as EditableProfileField[]).filter((field) => next[field] !== previous[field]);
    if (moved.length > 0) setDraft((current) => ({ ...current, ...Object.fromEntries(moved.map((field) => [field, next[field]])) }));
  }, [user]);

  useEffect(() => () => readerRef.current?.abort(), []);

  const saving = submitting || snapshot.profile.saving;
  const serverError = thrown ?? (outcome === 'sent' && !saving ? snapshot.profile.error : null);
  const saved = outcome === 'sent' && !saving && !serverError && snapshot.profile.saved;

  function edit(field: EditableProfileField, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    setOutcome('none');
  }

  function pickImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    readerRef.current?.abort();
    setOutcome('none');
    if (!file) return;
    const problem = profileImageProblem(file);
    if (problem) {
      setImageError(problem);
      setImage(null);
      event.target.value = '';
      return;
    }
    setImageError(null);
    const reader = new FileReader();
    readerRef.current = reader;
    reader.onload = () => {
      if (typeof reader.result === 'string') setImage(reader.result);
    };
    reader.onerror = () => setImageError('The picture could not be read. Choose another file.');
    reader.readAsDataURL(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const changes = changedFields(user, draft, editable);
    const errors = validateChanges(changes);
    setFieldErrors(errors);
    setThrown(null);
    if (Object.keys(errors).length > 0) {
      setOutcome('none');
      return;
    }
    const profileImage = visibility('profilePicture') === 'editable' && isUploadableImage(image, user.profilePictureUrl) ? image : undefined;
    if (Object.keys(changes).length === 0 && !profileImage) {
      setOutcome('unchanged');
      return;
    }
    setSubmitting(true);
    setOutcome('sent');
    try {
      await store.updateProfile(profileImage ? { ...changes, profileImage } : changes);
      if (!store.getSnapshot().profile.error) {
        setImage(null);
        if (fileInputRef.current) fileInputRef.current.value = '';
      }
    } catch (error) {
      setThrown(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  const pictureVisibility = visibility('profilePicture');
  const emailVisibility = visibility('email');
  // A phone sign-up account has no email: its phone number stands in.
  const displayName = draft.name || user.email || user.phoneNumber || '';

  return (
    <section className="gh-ap-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      <form className="gh-ap-form" noValidate onSubmit={submit} aria-busy={saving}>
        {pictureVisibility !== 'hidden' && (
          <div className="gh-ap-field gh-ap-picture">
            <Avatar name={displayName} src={image ?? user.profilePictureUrl} size="large" />
            <div className="gh-ap-picture-controls">
              {pictureVisibility === 'editable' ? (
                <>
                  <label className="gh-ap-label" htmlFor={`${ids}-picture`}>Profile picture</label>
                  <input
                    ref={fileInputRef}
                    id={`${ids}-picture`}
                    className="gh-ap-file"
                    type="file"
                    accept={PROFILE_IMAGE_TYPES.join(',')}
                    aria-describedby={`${ids}-picture-hint`}
                    aria-invalid={imageError ? true : undefined}
                    disabled={saving}
                    onChange={pickImage}
                  />
                  <p id={`${ids}-picture-hint`} className="gh-ap-hint">PNG, JPEG, GIF or WebP, up to 1 MB.</p>
                  {imageError && <p className="gh-ap-field-error" role="alert">{imageError}</p>}
                </>
              ) : (
                <p className="gh-ap-label">Profile picture</p>
              )}
            </div>
          </div>
        )}
        {TEXT_FIELDS.map(({ field, label, type, autoComplete, maxLength }) => {
          const mode = visibility(field);
          if (mode === 'hidden') return null;
          const id = `${ids}-${field}`;
          const error = fieldErrors[field];
          return (
            <div key={field} className="gh-ap-field">
              <label className="gh-ap-label" htmlFor={id}>{label}</label>
              <input
                id={id}
                className="gh-ap-input"
                type={type}
                name={field}
                autoComplete={autoComplete}
                maxLength={maxLength}
                value={draft[field]}
                readOnly={mode === 'viewOnly'}
                required={field === 'name'}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => edit(field, event.target.value)}
              />
              {error && <p id={`${id}-error`} className="gh-ap-field-error">{error}</p>}
            </div>
          );
        })}
        {emailVisibility !== 'hidden' && user.email !== null && (
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-email`}>Email</label>
            <input id={`${ids}-email`} className="gh-ap-input" type="email" value={user.email} readOnly autoComplete="email" />
          </div>
        )}
        {serverError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{serverError}</p>}
        <div className="gh-ap-actions">
          <button type="submit" className="gh-ap-button" disabled={saving} aria-busy={saving}>
            {saving && <span className="gh-ap-spinner" aria-hidden="true" />}
            Save
          </button>
          <p className="gh-ap-status" role="status">
            {saved ? 'Profile saved' : outcome === 'unchanged' ? 'No changes to save' : ''}
          </p>
        </div>
      </form>
    </section>
  );
}
