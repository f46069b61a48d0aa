/* Reading files from the ESP (the volume we were loaded from). */
#include "boot/efi_util.h"
#include "mini/string.h"

static EFI_GUID loaded_image_guid = LOADED_IMAGE_PROTOCOL;
static EFI_GUID fs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

#define PATH_MAX16 160

/* hv.cfg paths are ASCII and may use '/'; UEFI wants UCS-2 with '\'. */
static int to_efi_path(const char *path, CHAR16 *out, size_t max)
{
	size_t j = 0;

	if (path[0] != '/' && path[0] != '\\')
		out[j++] = L'\\';
	for (size_t i = 0; path[i]; i++) {
		if (j + 1 >= max || (unsigned char)path[i] >= 0x80)
			return -1;
		out[j++] = path[i] == '/' ? L'\\' : (CHAR16)path[i];
	}
	out[j] = 0;
	return 0;
}

static EFI_STATUS open_root(EFI_FILE_HANDLE *root)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS s;

	s = efi_bs->HandleProtocol(efi_image, &loaded_image_guid, (void **)&li);
	if (EFI_ERROR(s))
		return s;
	s = efi_bs->HandleProtocol(li->DeviceHandle, &fs_guid, (void **)&fs);
	if (EFI_ERROR(s))
		return s;
	return fs->OpenVolume(fs, root);
}

static EFI_STATUS file_size(EFI_FILE_HANDLE f, UINT64 *size)
{
	UINT8 buf[sizeof(EFI_FILE_INFO) + 2 * PATH_MAX16];
	UINTN len = sizeof(buf);
	EFI_STATUS s = f->GetInfo(f, &file_info_guid, &len, buf);

	if (!EFI_ERROR(s))
		*size = ((EFI_FILE_INFO *)buf)->FileSize;
	return s;
}

EFI_STATUS efi_read_file(const char *path, void **data, UINT64 *size)
{
	CHAR16 p16[PATH_MAX16];
	EFI_FILE_HANDLE root, f;
	EFI_STATUS s;
	UINTN len;

	if (to_efi_path(path, p16, PATH_MAX16) < 0)
		return EFI_INVALID_PARAMETER;
	s = open_root(&root);
	if (EFI_ERROR(s))
		return s;
	s = root->Open(root, &f, p16, EFI_FILE_MODE_READ, 0);
	root->Close(root);
	if (EFI_ERROR(s))
		return s;
	s = file_size(f, size);
	if (!EFI_ERROR(s)) {
		/* One spare zero byte: text files can then be used as C strings. */
		*data = efi_alloc_pages(*size + 1);
		if (!*data)
			s = EFI_OUT_OF_RESOURCES;
	}
	if (!EFI_ERROR(s)) {
		len = *size;
		s = f->Read(f, &len, *data);
		if (!EFI_ERROR(s) && len != *size)
			s = EFI_END_OF_FILE;
	}
	f->Close(f);
	return s;
}
