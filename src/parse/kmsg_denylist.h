#ifndef PERFBOT_PARSE_KMSG_DENYLIST_H
#define PERFBOT_PARSE_KMSG_DENYLIST_H
/* lkp's etc/kmsg-denylist.raw (kmsg_denylist.c), NULL-terminated: fixed
 * strings; a kmsg line containing one is not counted in kmsg.*. */
extern const char *const kmsg_denylist[];
#endif
