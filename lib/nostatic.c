/*
 * nostatic.c -- a static link of libmon fails, and says why.
 *
 * libmon takes the place of pthread_create and the exec family and
 * calls the C library's own through dlsym(RTLD_NEXT), which only the
 * dynamic linker can answer.  Linked statically (-static or
 * -static-pie), a profiled program would build cleanly and then fail
 * every pthread_create with EAGAIN and every exec with ENOSYS.
 *
 * The two references below are met by every dynamic link and by no
 * static one: __tls_get_addr is defined by the dynamic linker alone,
 * never by libc.a, and _DYNAMIC by the link editor when it writes a
 * dynamic section.  Either would do for GNU ld and lld; gold lets
 * __tls_get_addr go unresolved in a static link, and -static-pie has a
 * dynamic section.  The link editor names the function that holds an
 * unresolved reference, so a static link stops with
 *
 *	in function `libmon_does_not_support_static_linking':
 *	undefined reference to `__tls_get_addr'
 *
 * exec.c, which is in every link of libmon, names the function, and
 * gmon.c's __monstartup calls it (it does nothing): that call keeps it
 * in a -p link that drops unused sections (--gc-sections).
 */
#include "mon_private.h"

extern char _DYNAMIC[];
void	*__tls_get_addr(void *);
void	libmon_does_not_support_static_linking(void) _mon_hidden;

__attribute__((noinline)) void
libmon_does_not_support_static_linking(void)
{
	__asm__ volatile ("" : : "r" (__tls_get_addr), "r" (_DYNAMIC));
}
