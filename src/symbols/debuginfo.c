/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finds a kernel's vmlinux and module debug files, refuses those of another
 * build, and routes each frame to the file that knows it. */
#include "symbols/debuginfo.h"

#include <string.h>

#include "util/error.h"

struct _FtlDebugInfo {
	FtlSymFile *vmlinux;
	char *release; /* from the vmlinux banner */
	char *modules_dir;
	GHashTable *module_paths; /* normalized name -> path; NULL until a module is asked */
	GHashTable *module_files; /* normalized name -> FtlSymFile* (NULL: failed) */
	gboolean build_id_compared;
};

void ftl_debuginfo_options_clear(FtlDebugInfoOptions *o)
{
	g_clear_pointer(&o->vmlinux, g_free);
	g_clear_pointer(&o->modules, g_free);
	g_clear_pointer(&o->root, g_free);
}

/* "Linux version 6.1.0-57-cloud-amd64 (...) #1 SMP ... Debian 6.1.192-3 (...)" */
static char *debuginfo_banner_release(const char *banner)
{
	static const char lead[] = "Linux version ";
	if (!banner || !g_str_has_prefix(banner, lead))
		return NULL;
	const char *r = banner + strlen(lead);
	return g_strndup(r, strcspn(r, " \n"));
}

/* Whether every word of the build an oops printed ("#1  Debian 6.1.192-3")
 * is a word of the banner. */
static gboolean debuginfo_build_matches(const char *banner, const char *build)
{
	g_auto(GStrv) have = g_strsplit_set(banner, " \n", -1);
	g_auto(GStrv) want = g_strsplit_set(build, " \n", -1);
	for (char **w = want; *w; w++)
		if (**w && !g_strv_contains((const char *const *)have, *w))
			return FALSE;
	return TRUE;
}

static void debuginfo_mismatch(GError **error, const char *input, const char *release,
			       const char *build, const char *path, const char *banner)
{
	g_autofree char *first = g_strndup(banner ? banner : "no kernel banner",
					   banner ? strcspn(banner, "\n") : 16);
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
		    "'%s' is from kernel %s%s%s but '%s' is %s (--force-debuginfo to use it anyway)",
		    input, release, build ? " " : "", build ? build : "", path, first);
}

FtlDebugInfo *ftl_debuginfo_open(const FtlDebugInfoOptions *o, const char *input,
				 const char *release, const char *build, const char *build_id,
				 char **missing, GError **error)
{
	if (missing)
		*missing = NULL;
	if (o->none || (!o->vmlinux && !release))
		return NULL;
	const char *root = o->root ? o->root : FTL_DEBUGINFO_ROOT;
	g_autofree char *path = o->vmlinux ? g_strdup(o->vmlinux)
					   : g_strdup_printf("%s/boot/vmlinux-%s", root, release);
	if (!o->vmlinux && !g_file_test(path, G_FILE_TEST_EXISTS)) {
		if (missing)
			*missing = g_steal_pointer(&path);
		return NULL;
	}
	g_autoptr(FtlSymFile) vm = ftl_symfile_open(path, error);
	if (!vm)
		return NULL;
	g_autofree char *banner = ftl_symfile_string(vm, "linux_banner");
	g_autofree char *have = debuginfo_banner_release(banner);
	if (release && !o->force &&
	    (g_strcmp0(have, release) || (build && !debuginfo_build_matches(banner, build)))) {
		debuginfo_mismatch(error, input, release, build, path, banner);
		return NULL;
	}
	const char *have_id = ftl_symfile_build_id(vm);
	if (build_id && !o->force && g_ascii_strcasecmp(build_id, have_id ? have_id : "")) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s' is from the kernel of build id %s but '%s' has %s%s "
			    "(--force-debuginfo to use it anyway)",
			    input, build_id, path, have_id ? "build id " : "no build id",
			    have_id ? have_id : "");
		return NULL;
	}
	FtlDebugInfo *d = g_new0(FtlDebugInfo, 1);
	d->vmlinux = g_steal_pointer(&vm);
	d->release = g_steal_pointer(&have);
	d->build_id_compared = build_id != NULL;
	const char *rel = release ? release : d->release;
	if (o->modules)
		d->modules_dir = g_strdup(o->modules);
	else if (rel)
		d->modules_dir = g_strdup_printf("%s/lib/modules/%s", root, rel);
	d->module_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						(GDestroyNotify)ftl_symfile_free);
	return d;
}

void ftl_debuginfo_free(FtlDebugInfo *d)
{
	if (!d)
		return;
	ftl_symfile_free(d->vmlinux);
	g_free(d->release);
	g_free(d->modules_dir);
	g_clear_pointer(&d->module_paths, g_hash_table_unref);
	g_hash_table_unref(d->module_files);
	g_free(d);
}

gboolean ftl_debuginfo_build_id_compared(const FtlDebugInfo *d)
{
	return d->build_id_compared;
}

FtlSymFile *ftl_debuginfo_vmlinux(FtlDebugInfo *d)
{
	return d->vmlinux;
}

const char *ftl_debuginfo_release(const FtlDebugInfo *d)
{
	return d->release;
}

/* "snd-hda" and "snd_hda" are one module; the name without .ko(.debug). */
static char *debuginfo_module_key(const char *name)
{
	char *k = g_strdup(name);
	g_strdelimit(k, "-", '_');
	return k;
}

static const char *const module_suffixes[] = { ".ko.debug", ".ko", ".ko.xz", ".ko.zst",
					       ".ko.gz", NULL };

/* Every module debug file under dir, by name; the first found wins, and
 * a .ko.debug over a .ko seen in the same directory. Depth is bounded:
 * kernel/drivers/net/ethernet/intel/ice/ice.ko is six levels down. */
static void debuginfo_index(GHashTable *paths, const char *dir, guint depth)
{
	if (depth > 12)
		return;
	g_autoptr(GDir) dh = g_dir_open(dir, 0, NULL);
	if (!dh)
		return;
	const char *e;
	while ((e = g_dir_read_name(dh))) {
		g_autofree char *p = g_build_filename(dir, e, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK)) {
			debuginfo_index(paths, p, depth + 1);
			continue;
		}
		for (const char *const *s = module_suffixes; *s; s++) {
			if (!g_str_has_suffix(e, *s))
				continue;
			g_autofree char *name = g_strndup(e, strlen(e) - strlen(*s));
			char *key = debuginfo_module_key(name);
			const char *old = g_hash_table_lookup(paths, key);
			if (!old || (g_str_has_suffix(e, ".ko.debug") &&
				     !g_str_has_suffix(old, ".ko.debug")))
				g_hash_table_insert(paths, key, g_steal_pointer(&p));
			else
				g_free(key);
			break;
		}
	}
}

FtlSymFile *ftl_debuginfo_module(FtlDebugInfo *d, const char *module)
{
	g_autofree char *key = debuginfo_module_key(module);
	gpointer f;
	if (g_hash_table_lookup_extended(d->module_files, key, NULL, &f))
		return f;
	if (!d->module_paths) {
		d->module_paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
		if (d->modules_dir)
			debuginfo_index(d->module_paths, d->modules_dir, 0);
	}
	const char *path = g_hash_table_lookup(d->module_paths, key);
	FtlSymFile *sf = path ? ftl_symfile_open(path, NULL) : NULL;
	g_hash_table_insert(d->module_files, g_steal_pointer(&key), sf);
	return sf;
}

guint ftl_debuginfo_frame(FtlDebugInfo *d, const char *func, guint64 off, guint64 size,
			  const char *module, GArray *frames)
{
	if (!func)
		return 0;
	FtlSymFile *f = module ? ftl_debuginfo_module(d, module) : d->vmlinux;
	guint64 addr;
	if (!f || !ftl_symfile_symbol(f, func, size, &addr))
		return 0;
	return ftl_symfile_lookup(f, addr + off, frames);
}

gboolean ftl_debuginfo_definition(FtlDebugInfo *d, const char *func, const char **file,
				  guint *line)
{
	return ftl_symfile_definition(d->vmlinux, func, 0, file, line);
}

const char *ftl_debuginfo_short_path(FtlDebugInfo *d, const char *path)
{
	if (!path)
		return NULL;
	const char *prefix = ftl_symfile_tree_prefix(d->vmlinux);
	if (!*prefix)
		return path; /* not a kernel */
	if (g_str_has_prefix(path, prefix))
		return path + strlen(prefix);
	/* assembly names its files from the absolute source directory
	 * (/build/reproducible-path/linux-6.1.192/arch/x86/entry/entry_64.S):
	 * cut before the first top directory of the kernel's tree */
	static const char *const top[] = { "arch", "block", "certs", "crypto", "drivers", "fs",
					   "include", "init", "io_uring", "ipc", "kernel", "lib",
					   "mm", "net", "rust", "security", "sound", "virt", NULL };
	if (path[0] != '/')
		return path;
	for (const char *p = path; p; p = strchr(p + 1, '/'))
		for (const char *const *t = top; *t; t++) {
			gsize n = strlen(*t);
			if (strncmp(p + 1, *t, n) == 0 && p[1 + n] == '/')
				return p + 1;
		}
	return path;
}
