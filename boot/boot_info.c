#include "boot/boot_info.h"
#include "mini/string.h"

const struct boot_file *boot_find_file(const struct boot_info *bi,
				       const char *path)
{
	for (uint32_t i = 0; i < bi->nr_files; i++)
		if (strcmp(bi->files[i].path, path) == 0)
			return &bi->files[i];
	return NULL;
}
