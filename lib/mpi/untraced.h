/* untraced.h - made by untraced.awk from untraced.list: do not edit. */

#define TR_UNTRACED_N 91

static const char *const tr_untraced_name[TR_UNTRACED_N] = {
	"MPI_Accumulate",
	"MPI_Buffer_detach",
	"MPI_Cancel",
	"MPI_Close_port",
	"MPI_Comm_accept",
	"MPI_Comm_connect",
	"MPI_Comm_join",
	"MPI_Comm_spawn",
	"MPI_Comm_spawn_multiple",
	"MPI_Compare_and_swap",
	"MPI_Fetch_and_op",
	"MPI_File_close",
	"MPI_File_delete",
	"MPI_File_get_position_shared",
	"MPI_File_iread",
	"MPI_File_iread_all",
	"MPI_File_iread_at",
	"MPI_File_iread_at_all",
	"MPI_File_iread_shared",
	"MPI_File_iwrite",
	"MPI_File_iwrite_all",
	"MPI_File_iwrite_at",
	"MPI_File_iwrite_at_all",
	"MPI_File_iwrite_shared",
	"MPI_File_open",
	"MPI_File_preallocate",
	"MPI_File_read",
	"MPI_File_read_all",
	"MPI_File_read_all_begin",
	"MPI_File_read_all_end",
	"MPI_File_read_at",
	"MPI_File_read_at_all",
	"MPI_File_read_at_all_begin",
	"MPI_File_read_at_all_end",
	"MPI_File_read_ordered",
	"MPI_File_read_ordered_begin",
	"MPI_File_read_ordered_end",
	"MPI_File_read_shared",
	"MPI_File_seek_shared",
	"MPI_File_set_atomicity",
	"MPI_File_set_info",
	"MPI_File_set_size",
	"MPI_File_set_view",
	"MPI_File_sync",
	"MPI_File_write",
	"MPI_File_write_all",
	"MPI_File_write_all_begin",
	"MPI_File_write_all_end",
	"MPI_File_write_at",
	"MPI_File_write_at_all",
	"MPI_File_write_at_all_begin",
	"MPI_File_write_at_all_end",
	"MPI_File_write_ordered",
	"MPI_File_write_ordered_begin",
	"MPI_File_write_ordered_end",
	"MPI_File_write_shared",
	"MPI_Get",
	"MPI_Get_accumulate",
	"MPI_Grequest_complete",
	"MPI_Grequest_start",
	"MPI_Lookup_name",
	"MPI_Publish_name",
	"MPI_Put",
	"MPI_Raccumulate",
	"MPI_Request_get_status",
	"MPI_Rget",
	"MPI_Rget_accumulate",
	"MPI_Rput",
	"MPI_Unpublish_name",
	"MPI_Win_allocate",
	"MPI_Win_allocate_shared",
	"MPI_Win_attach",
	"MPI_Win_complete",
	"MPI_Win_create",
	"MPI_Win_create_dynamic",
	"MPI_Win_detach",
	"MPI_Win_fence",
	"MPI_Win_flush",
	"MPI_Win_flush_all",
	"MPI_Win_flush_local",
	"MPI_Win_flush_local_all",
	"MPI_Win_free",
	"MPI_Win_lock",
	"MPI_Win_lock_all",
	"MPI_Win_post",
	"MPI_Win_start",
	"MPI_Win_sync",
	"MPI_Win_test",
	"MPI_Win_unlock",
	"MPI_Win_unlock_all",
	"MPI_Win_wait",
};

EXPORT __attribute__((weak)) int
MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	TR_UNTRACED_COUNT(0);
	return PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
}

EXPORT __attribute__((weak)) int
MPI_Buffer_detach(void *buffer, int *size)
{
	TR_UNTRACED_COUNT(1);
	return PMPI_Buffer_detach(buffer, size);
}

EXPORT __attribute__((weak)) int
MPI_Cancel(MPI_Request *request)
{
	TR_UNTRACED_COUNT(2);
	return PMPI_Cancel(request);
}

EXPORT __attribute__((weak)) int
MPI_Close_port(const char *port_name)
{
	TR_UNTRACED_COUNT(3);
	return PMPI_Close_port(port_name);
}

EXPORT __attribute__((weak)) int
MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
	TR_UNTRACED_COUNT(4);
	return PMPI_Comm_accept(port_name, info, root, comm, newcomm);
}

EXPORT __attribute__((weak)) int
MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
	TR_UNTRACED_COUNT(5);
	return PMPI_Comm_connect(port_name, info, root, comm, newcomm);
}

EXPORT __attribute__((weak)) int
MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
	TR_UNTRACED_COUNT(6);
	return PMPI_Comm_join(fd, intercomm);
}

EXPORT __attribute__((weak)) int
MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
	TR_UNTRACED_COUNT(7);
	return PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes);
}

EXPORT __attribute__((weak)) int
MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
	TR_UNTRACED_COUNT(8);
	return PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes);
}

EXPORT __attribute__((weak)) int
MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
	TR_UNTRACED_COUNT(9);
	return PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
}

EXPORT __attribute__((weak)) int
MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
	TR_UNTRACED_COUNT(10);
	return PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
}

EXPORT __attribute__((weak)) int
MPI_File_close(MPI_File *fh)
{
	TR_UNTRACED_COUNT(11);
	return PMPI_File_close(fh);
}

EXPORT __attribute__((weak)) int
MPI_File_delete(const char *filename, MPI_Info info)
{
	TR_UNTRACED_COUNT(12);
	return PMPI_File_delete(filename, info);
}

EXPORT __attribute__((weak)) int
MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	TR_UNTRACED_COUNT(13);
	return PMPI_File_get_position_shared(fh, offset);
}

EXPORT __attribute__((weak)) int
MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(14);
	return PMPI_File_iread(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(15);
	return PMPI_File_iread_all(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(16);
	return PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(17);
	return PMPI_File_iread_at_all(fh, offset, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(18);
	return PMPI_File_iread_shared(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(19);
	return PMPI_File_iwrite(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(20);
	return PMPI_File_iwrite_all(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(21);
	return PMPI_File_iwrite_at(fh, offset, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(22);
	return PMPI_File_iwrite_at_all(fh, offset, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	TR_UNTRACED_COUNT(23);
	return PMPI_File_iwrite_shared(fh, buf, count, datatype, request);
}

EXPORT __attribute__((weak)) int
MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
	TR_UNTRACED_COUNT(24);
	return PMPI_File_open(comm, filename, amode, info, fh);
}

EXPORT __attribute__((weak)) int
MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
	TR_UNTRACED_COUNT(25);
	return PMPI_File_preallocate(fh, size);
}

EXPORT __attribute__((weak)) int
MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(26);
	return PMPI_File_read(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(27);
	return PMPI_File_read_all(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(28);
	return PMPI_File_read_all_begin(fh, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(29);
	return PMPI_File_read_all_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(30);
	return PMPI_File_read_at(fh, offset, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(31);
	return PMPI_File_read_at_all(fh, offset, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(32);
	return PMPI_File_read_at_all_begin(fh, offset, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(33);
	return PMPI_File_read_at_all_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(34);
	return PMPI_File_read_ordered(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(35);
	return PMPI_File_read_ordered_begin(fh, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(36);
	return PMPI_File_read_ordered_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(37);
	return PMPI_File_read_shared(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	TR_UNTRACED_COUNT(38);
	return PMPI_File_seek_shared(fh, offset, whence);
}

EXPORT __attribute__((weak)) int
MPI_File_set_atomicity(MPI_File fh, int flag)
{
	TR_UNTRACED_COUNT(39);
	return PMPI_File_set_atomicity(fh, flag);
}

EXPORT __attribute__((weak)) int
MPI_File_set_info(MPI_File fh, MPI_Info info)
{
	TR_UNTRACED_COUNT(40);
	return PMPI_File_set_info(fh, info);
}

EXPORT __attribute__((weak)) int
MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
	TR_UNTRACED_COUNT(41);
	return PMPI_File_set_size(fh, size);
}

EXPORT __attribute__((weak)) int
MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
	TR_UNTRACED_COUNT(42);
	return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
}

EXPORT __attribute__((weak)) int
MPI_File_sync(MPI_File fh)
{
	TR_UNTRACED_COUNT(43);
	return PMPI_File_sync(fh);
}

EXPORT __attribute__((weak)) int
MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(44);
	return PMPI_File_write(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(45);
	return PMPI_File_write_all(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(46);
	return PMPI_File_write_all_begin(fh, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(47);
	return PMPI_File_write_all_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(48);
	return PMPI_File_write_at(fh, offset, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(49);
	return PMPI_File_write_at_all(fh, offset, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(50);
	return PMPI_File_write_at_all_begin(fh, offset, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(51);
	return PMPI_File_write_at_all_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(52);
	return PMPI_File_write_ordered(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	TR_UNTRACED_COUNT(53);
	return PMPI_File_write_ordered_begin(fh, buf, count, datatype);
}

EXPORT __attribute__((weak)) int
MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	TR_UNTRACED_COUNT(54);
	return PMPI_File_write_ordered_end(fh, buf, status);
}

EXPORT __attribute__((weak)) int
MPI_File_write_shared(MPI_File fh, const void *buf, int count, 					 MPI_Datatype datatype, MPI_Status *status)
{
	TR_UNTRACED_COUNT(55);
	return PMPI_File_write_shared(fh, buf, count, datatype, status);
}

EXPORT __attribute__((weak)) int
MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	TR_UNTRACED_COUNT(56);
	return PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
}

EXPORT __attribute__((weak)) int
MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	TR_UNTRACED_COUNT(57);
	return PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
}

EXPORT __attribute__((weak)) int
MPI_Grequest_complete(MPI_Request request)
{
	TR_UNTRACED_COUNT(58);
	return PMPI_Grequest_complete(request);
}

EXPORT __attribute__((weak)) int
MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
	TR_UNTRACED_COUNT(59);
	return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request);
}

EXPORT __attribute__((weak)) int
MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
	TR_UNTRACED_COUNT(60);
	return PMPI_Lookup_name(service_name, info, port_name);
}

EXPORT __attribute__((weak)) int
MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
	TR_UNTRACED_COUNT(61);
	return PMPI_Publish_name(service_name, info, port_name);
}

EXPORT __attribute__((weak)) int
MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	TR_UNTRACED_COUNT(62);
	return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
}

EXPORT __attribute__((weak)) int
MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
	TR_UNTRACED_COUNT(63);
	return PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
}

EXPORT __attribute__((weak)) int
MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	TR_UNTRACED_COUNT(64);
	return PMPI_Request_get_status(request, flag, status);
}

EXPORT __attribute__((weak)) int
MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	TR_UNTRACED_COUNT(65);
	return PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
}

EXPORT __attribute__((weak)) int
MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
	TR_UNTRACED_COUNT(66);
	return PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
}

EXPORT __attribute__((weak)) int
MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	TR_UNTRACED_COUNT(67);
	return PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_cout, target_datatype, win, request);
}

EXPORT __attribute__((weak)) int
MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
	TR_UNTRACED_COUNT(68);
	return PMPI_Unpublish_name(service_name, info, port_name);
}

EXPORT __attribute__((weak)) int
MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	TR_UNTRACED_COUNT(69);
	return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	TR_UNTRACED_COUNT(70);
	return PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	TR_UNTRACED_COUNT(71);
	return PMPI_Win_attach(win, base, size);
}

EXPORT __attribute__((weak)) int
MPI_Win_complete(MPI_Win win)
{
	TR_UNTRACED_COUNT(72);
	return PMPI_Win_complete(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	TR_UNTRACED_COUNT(73);
	return PMPI_Win_create(base, size, disp_unit, info, comm, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	TR_UNTRACED_COUNT(74);
	return PMPI_Win_create_dynamic(info, comm, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_detach(MPI_Win win, const void *base)
{
	TR_UNTRACED_COUNT(75);
	return PMPI_Win_detach(win, base);
}

EXPORT __attribute__((weak)) int
MPI_Win_fence(int assert, MPI_Win win)
{
	TR_UNTRACED_COUNT(76);
	return PMPI_Win_fence(assert, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_flush(int rank, MPI_Win win)
{
	TR_UNTRACED_COUNT(77);
	return PMPI_Win_flush(rank, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_flush_all(MPI_Win win)
{
	TR_UNTRACED_COUNT(78);
	return PMPI_Win_flush_all(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_flush_local(int rank, MPI_Win win)
{
	TR_UNTRACED_COUNT(79);
	return PMPI_Win_flush_local(rank, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_flush_local_all(MPI_Win win)
{
	TR_UNTRACED_COUNT(80);
	return PMPI_Win_flush_local_all(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_free(MPI_Win *win)
{
	TR_UNTRACED_COUNT(81);
	return PMPI_Win_free(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	TR_UNTRACED_COUNT(82);
	return PMPI_Win_lock(lock_type, rank, assert, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_lock_all(int assert, MPI_Win win)
{
	TR_UNTRACED_COUNT(83);
	return PMPI_Win_lock_all(assert, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	TR_UNTRACED_COUNT(84);
	return PMPI_Win_post(group, assert, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	TR_UNTRACED_COUNT(85);
	return PMPI_Win_start(group, assert, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_sync(MPI_Win win)
{
	TR_UNTRACED_COUNT(86);
	return PMPI_Win_sync(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_test(MPI_Win win, int *flag)
{
	TR_UNTRACED_COUNT(87);
	return PMPI_Win_test(win, flag);
}

EXPORT __attribute__((weak)) int
MPI_Win_unlock(int rank, MPI_Win win)
{
	TR_UNTRACED_COUNT(88);
	return PMPI_Win_unlock(rank, win);
}

EXPORT __attribute__((weak)) int
MPI_Win_unlock_all(MPI_Win win)
{
	TR_UNTRACED_COUNT(89);
	return PMPI_Win_unlock_all(win);
}

EXPORT __attribute__((weak)) int
MPI_Win_wait(MPI_Win win)
{
	TR_UNTRACED_COUNT(90);
	return PMPI_Win_wait(win);
}
