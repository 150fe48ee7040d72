/* SPDX-License-Identifier: MIT */
/* GNU-EFI glue: load options, the config and results files, memory, ACPI, ExitBootServices. */
#include <efi.h>
#include <efilib.h>

#include "arch/x86/smp.h"
#include "boot/uefi.h"
#include "lib/fmt.h"
#include "lib/string.h"

static EFI_HANDLE image_handle;
static EFI_SYSTEM_TABLE *systab;
static EFI_LOADED_IMAGE *loaded_image;
static EFI_TPL saved_tpl;
static bool tpl_raised;
static bool from_shell;

/* Memory map buffer reserved before ExitBootServices: nothing may be allocated between
 * GetMemoryMap and ExitBootServices, nor after a failed ExitBootServices. */
static UINT8 *mmap_buf;
static UINTN mmap_cap;

void uefi_init(void *image, void *system_table)
{
	image_handle = image;
	systab = system_table;
	InitializeLib(image_handle, systab);
	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image_handle,
					&LoadedImageProtocol, (void **)&loaded_image)))
		loaded_image = NULL;
}

bool uefi_image_range(uint64_t *base, uint64_t *size)
{
	if (!loaded_image)
		return false;
	*base = (uint64_t)(uintptr_t)loaded_image->ImageBase;
	*size = loaded_image->ImageSize;
	return true;
}

void uefi_disable_watchdog(void)
{
	/* UEFI 2.x 7.5: the boot manager arms a 5-minute watchdog before starting an app. */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
}

/* UCS-2 to ASCII; returns -1 when a character is not printable ASCII (binary data). */
static int ucs2_to_ascii(const CHAR16 *s, size_t n, char *out, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; i < n && s[i]; i++) {
		CHAR16 ch = s[i];

		if (ch == '\t' || ch == '\r' || ch == '\n')
			ch = ' ';
		if (ch < 0x20 || ch > 0x7e)
			return -1;
		if (j + 1 >= size)
			return -1;
		out[j++] = (char)ch;
	}
	out[j] = '\0';
	return (int)j;
}

size_t uefi_load_options(char *buf, size_t size, char *note, size_t notelen)
{
	EFI_SHELL_PARAMETERS_PROTOCOL *sp = NULL;

	buf[0] = '\0';
	if (!EFI_ERROR(uefi_call_wrapper(BS->OpenProtocol, 6, image_handle,
					 &ShellParametersProtocolGuid, (void **)&sp, image_handle,
					 NULL, EFI_OPEN_PROTOCOL_GET_PROTOCOL)) && sp) {
		size_t len = 0;

		for (UINTN i = 1; i < sp->Argc; i++) {
			char arg[256];
			int n = ucs2_to_ascii(sp->Argv[i], StrLen(sp->Argv[i]), arg, sizeof(arg));

			if (n < 0) {
				fmt_snprintf(note, notelen, "shell argument %u is not printable ASCII",
					     (unsigned)i);
				return (size_t)-1;
			}
			if (len + (size_t)n + 2 > size) {
				fmt_snprintf(note, notelen, "shell arguments longer than %u bytes",
					     (unsigned)size);
				return (size_t)-1;
			}
			if (len)
				buf[len++] = ' ';
			memcpy(buf + len, arg, (size_t)n + 1);
			len += (size_t)n;
		}
		from_shell = sp->Argc > 1;
		fmt_snprintf(note, notelen, "shell, %u argument(s)", (unsigned)(sp->Argc - 1));
		return len;
	}
	if (!loaded_image || !loaded_image->LoadOptions || loaded_image->LoadOptionsSize < 2) {
		fmt_snprintf(note, notelen, "none");
		return 0;
	}
	int n = ucs2_to_ascii(loaded_image->LoadOptions, loaded_image->LoadOptionsSize / 2,
			      buf, size);
	if (n < 0 || (loaded_image->LoadOptionsSize & 1)) {
		buf[0] = '\0';
		fmt_snprintf(note, notelen, "ignored: %u bytes of binary data",
			     (unsigned)loaded_image->LoadOptionsSize);
		return 0;
	}
	/* iPXE (chain/boot of an EFI image) passes "NAME.EFI ARGS": the image's own name first,
	 * as argv[0]. A first word ending in ".efi" is that name, not an option. */
	{
		int w = 0;

		while (w < n && buf[w] != ' ')
			w++;
		if (w > 4 && (buf[w - 4] == '.') && (buf[w - 3] | 0x20) == 'e' &&
		    (buf[w - 2] | 0x20) == 'f' && (buf[w - 1] | 0x20) == 'i') {
			int skip = w < n ? w + 1 : w;

			fmt_snprintf(note, notelen, "boot option text, %d bytes (first word %.*s taken "
				     "as the image's name)", n, w < 40 ? w : 40, buf);
			memmove(buf, buf + skip, (size_t)(n - skip) + 1);
			return (size_t)(n - skip);
		}
	}
	fmt_snprintf(note, notelen, "boot option text, %d bytes", n);
	return (size_t)n;
}

bool uefi_started_from_shell(void)
{
	return from_shell;
}

/* Directory of the app on its volume, e.g. L"\\EFI\\BOOT\\", from the file-path nodes. */
static void image_dir(CHAR16 *out, size_t cap)
{
	EFI_DEVICE_PATH *dp = loaded_image ? loaded_image->FilePath : NULL;
	size_t n = 0, last_sep = 0;

	out[0] = 0;
	while (dp && !IsDevicePathEnd(dp)) {
		if (DevicePathType(dp) == MEDIA_DEVICE_PATH && DevicePathSubType(dp) == MEDIA_FILEPATH_DP) {
			FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)dp;
			size_t chars = (DevicePathNodeLength(dp) - 4) / sizeof(CHAR16);

			if (n && out[n - 1] != '\\' && chars && fp->PathName[0] != '\\' && n + 1 < cap)
				out[n++] = '\\';
			for (size_t i = 0; i < chars && fp->PathName[i] && n + 1 < cap; i++)
				out[n++] = fp->PathName[i] == '/' ? '\\' : fp->PathName[i];
		}
		dp = NextDevicePathNode(dp);
	}
	out[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (out[i] == '\\')
			last_sep = i + 1;
	out[last_sep] = 0;
	if (!last_sep && cap > 1) {
		out[0] = '\\';
		out[1] = 0;
	}
}

static EFI_FILE_HANDLE open_beside_image(const char *name, UINT64 mode, EFI_STATUS *st)
{
	EFI_FILE_IO_INTERFACE *fs;
	EFI_FILE_HANDLE root, f;
	CHAR16 path[512];
	size_t n;

	*st = EFI_NOT_FOUND;
	if (!loaded_image)
		return NULL;
	*st = uefi_call_wrapper(BS->HandleProtocol, 3, loaded_image->DeviceHandle,
				&FileSystemProtocol, (void **)&fs);
	if (EFI_ERROR(*st))
		return NULL;
	*st = uefi_call_wrapper(fs->OpenVolume, 2, fs, &root);
	if (EFI_ERROR(*st))
		return NULL;
	image_dir(path, 400);
	n = StrLen(path);
	for (size_t i = 0; name[i] && n + 1 < 512; i++)
		path[n++] = (CHAR16)name[i];
	path[n] = 0;
	*st = uefi_call_wrapper(root->Open, 5, root, &f, path, mode, 0);
	uefi_call_wrapper(root->Close, 1, root);
	return EFI_ERROR(*st) ? NULL : f;
}

int uefi_read_cfg(char *buf, size_t size, size_t *len, char *note, size_t notelen)
{
	EFI_STATUS st;
	EFI_FILE_HANDLE f = open_beside_image(CFG_FILE_NAME, EFI_FILE_MODE_READ, &st);
	UINTN n = size - 1;

	*len = 0;
	buf[0] = '\0';
	if (!f) {
		if (st == EFI_NOT_FOUND) {
			fmt_snprintf(note, notelen, "none beside the app");
			return 0;
		}
		/* Loaded by the firmware's own PXE or HTTP boot: the device is a NIC with no
		 * file system, so nothing can be beside the app (iPXE provides one). */
		if (st == EFI_UNSUPPORTED) {
			fmt_snprintf(note, notelen, "none: the app's device has no file system "
				     "(network boot)");
			return 0;
		}
		fmt_snprintf(note, notelen, "cannot open: EFI status 0x%lx", (unsigned long)st);
		return -1;
	}
	st = uefi_call_wrapper(f->Read, 3, f, &n, buf);
	if (!EFI_ERROR(st) && n == size - 1) {
		char extra;
		UINTN one = 1;

		if (!EFI_ERROR(uefi_call_wrapper(f->Read, 3, f, &one, &extra)) && one) {
			uefi_call_wrapper(f->Close, 1, f);
			fmt_snprintf(note, notelen, "larger than %u bytes", (unsigned)(size - 1));
			return -1;
		}
	}
	uefi_call_wrapper(f->Close, 1, f);
	if (EFI_ERROR(st)) {
		fmt_snprintf(note, notelen, "read error: EFI status 0x%lx", (unsigned long)st);
		return -1;
	}
	buf[n] = '\0';
	*len = n;
	fmt_snprintf(note, notelen, "%u bytes", (unsigned)n);
	return 1;
}

int uefi_write_file(const char *name, const char *data, size_t len)
{
	EFI_STATUS st;
	EFI_FILE_HANDLE f;
	UINTN n = len;

	/* Delete first so a shorter result does not leave an old tail behind. */
	f = open_beside_image(name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, &st);
	if (f)
		uefi_call_wrapper(f->Delete, 1, f);
	f = open_beside_image(name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, &st);
	if (!f)
		return -1;
	st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	uefi_call_wrapper(f->Close, 1, f);
	return EFI_ERROR(st) || n != len ? -1 : 0;
}

uint64_t uefi_alloc_pages(uint64_t bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	UINTN pages = (bytes + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
					pages, &a)))
		return 0;
	return a;
}

uint64_t uefi_alloc_pages_below(uint64_t bytes, uint64_t max_addr)
{
	EFI_PHYSICAL_ADDRESS a = max_addr;
	UINTN pages = (bytes + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EfiLoaderData,
					pages, &a)))
		return 0;
	return a;
}

static EFI_STATUS get_map(UINTN *size, UINTN *key, UINTN *dsize)
{
	UINT32 dver;

	*size = mmap_cap;
	return uefi_call_wrapper(BS->GetMemoryMap, 5, size, (EFI_MEMORY_DESCRIPTOR *)mmap_buf,
				 key, dsize, &dver);
}

static int reserve_map(void)
{
	UINTN size = 0, key, dsize;
	UINT32 dver;

	if (mmap_buf)
		return 0;
	uefi_call_wrapper(BS->GetMemoryMap, 5, &size, NULL, &key, &dsize, &dver);
	/* Room for the allocation itself and for the map to grow meanwhile. */
	mmap_cap = size * 2 + 64 * 64;
	mmap_buf = (UINT8 *)(uintptr_t)uefi_alloc_pages(mmap_cap);
	return mmap_buf ? 0 : -1;
}

void uefi_memory(uint64_t *usable, uint64_t *largest_free, uint64_t *top)
{
	UINTN size, key, dsize;

	*usable = *largest_free = *top = 0;
	if (reserve_map() || EFI_ERROR(get_map(&size, &key, &dsize)))
		return;
	for (UINTN off = 0; off + dsize <= size; off += dsize) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(mmap_buf + off);
		uint64_t bytes = d->NumberOfPages * EFI_PAGE_SIZE;

		if (d->PhysicalStart + bytes > *top)
			*top = d->PhysicalStart + bytes;
		switch (d->Type) {
		case EfiConventionalMemory:
			if (bytes > *largest_free)
				*largest_free = bytes;
			/* fall through */
		case EfiBootServicesCode:
		case EfiBootServicesData:
		case EfiLoaderCode:
		case EfiLoaderData:
			*usable += bytes;
			break;
		default:
			break;
		}
	}
}

uint64_t uefi_find_rsdp(void)
{
	static EFI_GUID acpi20 = ACPI_20_TABLE_GUID;
	void *p = NULL;

	if (!EFI_ERROR(LibGetSystemConfigurationTable(&acpi20, &p)) && p)
		return (uint64_t)(uintptr_t)p;
	if (!EFI_ERROR(LibGetSystemConfigurationTable(&AcpiTableGuid, &p)) && p)
		return (uint64_t)(uintptr_t)p;
	return 0;
}

int uefi_exit_boot_services(unsigned *attempts)
{
	UINTN size, key, dsize;

	*attempts = 0;
	if (reserve_map())
		return -1;
	for (unsigned i = 0; i < 8; i++) {
		EFI_STATUS st;

		(*attempts)++;
		if (EFI_ERROR(get_map(&size, &key, &dsize)))
			return -1;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, image_handle, key);
		if (!EFI_ERROR(st))
			return 0;
		if (st != EFI_INVALID_PARAMETER)	/* anything but a stale key is final */
			return -1;
	}
	return -1;
}

bool uefi_console_has_serial(void)
{
	static UINT8 buf[2048];
	UINTN size = sizeof(buf);
	UINT32 attr;
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	EFI_DEVICE_PATH *dp;
	UINT8 *end;

	if (EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, L"ConOut", &global, &attr, &size, buf)))
		return false;
	/* A multi-instance device path: walk every node of every instance. */
	end = buf + size;
	for (dp = (EFI_DEVICE_PATH *)buf; (UINT8 *)dp + 4 <= end; dp = NextDevicePathNode(dp)) {
		if (DevicePathNodeLength(dp) < 4)
			break;
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH && DevicePathSubType(dp) == MSG_UART_DP)
			return true;
		if (DevicePathType(dp) == END_DEVICE_PATH_TYPE &&
		    DevicePathSubType(dp) == END_ENTIRE_DEVICE_PATH_SUBTYPE)
			break;
	}
	return false;
}

void uefi_console_write(const char *s)
{
	CHAR16 buf[256];
	size_t n = 0;

	if (!systab || !systab->ConOut)
		return;
	for (; *s; s++) {
		if (*s == '\n')
			buf[n++] = '\r';
		buf[n++] = (CHAR16)(unsigned char)*s;
		if (n >= 250) {
			buf[n] = 0;
			uefi_call_wrapper(systab->ConOut->OutputString, 2, systab->ConOut, buf);
			n = 0;
		}
	}
	buf[n] = 0;
	if (n)
		uefi_call_wrapper(systab->ConOut->OutputString, 2, systab->ConOut, buf);
}

void uefi_raise_tpl_notify(void)
{
	saved_tpl = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_NOTIFY);
	tpl_raised = true;
}

void uefi_restore_tpl(void)
{
	if (tpl_raised)
		uefi_call_wrapper(BS->RestoreTPL, 1, saved_tpl);
	tpl_raised = false;
}

void uefi_reset(enum uefi_reset type, uint64_t status)
{
	uefi_call_wrapper(RT->ResetSystem, 4,
			  type == UEFI_RESET_SHUTDOWN ? EfiResetShutdown : EfiResetCold,
			  (EFI_STATUS)status, 0, NULL);
}

/* --- EFI_MP_SERVICES_PROTOCOL (UEFI PI specification Vol. 2, 13.4): GNU-EFI lacks it --- */

#define MP_SERVICES_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }
#define MP_STATUS_BSP		(1U << 0)	/* PROCESSOR_AS_BSP_BIT */
#define MP_STATUS_ENABLED	(1U << 1)	/* PROCESSOR_ENABLED_BIT */
#define MP_STATUS_HEALTHY	(1U << 2)	/* PROCESSOR_HEALTH_STATUS_BIT */

struct mp_processor_info {
	UINT64 ProcessorId;			/* the APIC ID */
	UINT32 StatusFlag;
	UINT32 Package, Core, Thread;		/* EFI_CPU_PHYSICAL_LOCATION */
	UINT8 extended[64];			/* PI 1.7 ExtendedInformation, and room */
};

typedef VOID (EFIAPI *mp_procedure)(VOID *arg);

struct mp_services {
	EFI_STATUS (EFIAPI *GetNumberOfProcessors)(struct mp_services *self, UINTN *n,
						  UINTN *enabled);
	EFI_STATUS (EFIAPI *GetProcessorInfo)(struct mp_services *self, UINTN cpu,
					     struct mp_processor_info *info);
	EFI_STATUS (EFIAPI *StartupAllAPs)(struct mp_services *self, mp_procedure fn,
					  BOOLEAN single, EFI_EVENT wait, UINTN timeout_us,
					  VOID *arg, UINTN **failed);
	EFI_STATUS (EFIAPI *StartupThisAP)(struct mp_services *self, mp_procedure fn, UINTN cpu,
					  EFI_EVENT wait, UINTN timeout_us, VOID *arg,
					  BOOLEAN *finished);
	VOID *SwitchBSP, *EnableDisableAP, *WhoAmI;
};

static struct mp_services *mp;
static UINTN mp_number[MAX_CPUS];	/* pmuboot's CPU i is the protocol's mp_number[i] */

struct mp_job {
	unsigned cpu;
	void (*fn)(void *);
	void *arg;
	int result;
};

static VOID EFIAPI mp_proc(VOID *p)
{
	struct mp_job *j = p;

	j->result = smp_fw_ap_run(j->cpu, j->fn, j->arg);
}

static int mp_call(unsigned cpu, void (*fn)(void *), void *arg, uint64_t timeout_us)
{
	struct mp_job j = { cpu, fn, arg, SMP_EFAULT };
	EFI_STATUS st;

	if (!mp || cpu == 0 || cpu >= MAX_CPUS)
		return SMP_ENOCPU;
	st = mp->StartupThisAP(mp, mp_proc, mp_number[cpu], NULL, (UINTN)timeout_us, &j, NULL);
	if (st == EFI_TIMEOUT)
		return SMP_ETIMEOUT;	/* the firmware has reset that AP */
	if (EFI_ERROR(st))
		return SMP_ENOCPU;
	return j.result;
}

int uefi_mp_services(uint64_t chosen, char *why, size_t whylen)
{
	EFI_GUID guid = MP_SERVICES_GUID;
	uint32_t ids[MAX_CPUS];
	UINTN n = 0, enabled = 0;
	unsigned k = 1;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (VOID **)&mp)) || !mp) {
		mp = NULL;
		str_lcpy(why, "the firmware has no EFI_MP_SERVICES_PROTOCOL", whylen);
		return -1;
	}
	if (EFI_ERROR(mp->GetNumberOfProcessors(mp, &n, &enabled))) {
		str_lcpy(why, "EFI_MP_SERVICES_PROTOCOL.GetNumberOfProcessors failed", whylen);
		return -1;
	}
	for (UINTN i = 0; i < n; i++) {
		struct mp_processor_info info;

		memset(&info, 0, sizeof(info));
		if (EFI_ERROR(mp->GetProcessorInfo(mp, i, &info)))
			continue;
		if (info.StatusFlag & MP_STATUS_BSP) {
			ids[0] = (uint32_t)info.ProcessorId;
			mp_number[0] = i;
		} else if ((info.StatusFlag & MP_STATUS_ENABLED) &&
			   (info.StatusFlag & MP_STATUS_HEALTHY) && k < MAX_CPUS) {
			ids[k] = (uint32_t)info.ProcessorId;
			mp_number[k++] = i;
		}
	}
	smp_use_firmware(k, ids, chosen, mp_call);
	return 0;
}
