; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@global_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define amdgpu_kernel void @allreduce_one_shot(ptr addrspace(1) inreg %0, ptr addrspace(1) inreg %1, ptr addrspace(1) inreg %2, i32 inreg %3, ptr addrspace(1) inreg readonly captures(none) %4, ptr addrspace(1) inreg readnone captures(none) %5, ptr addrspace(1) inreg readnone captures(none) %6) local_unnamed_addr #0 !dbg !4 {
  %8 = tail call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !7
  %9 = shl i32 %8, 6, !dbg !8
  %10 = tail call i32 @llvm.amdgcn.workitem.id.x(), !dbg !9
  %11 = and i32 %10, 63, !dbg !9
  %12 = or disjoint i32 %9, %11, !dbg !10
  %13 = sext i32 %12 to i64, !dbg !11
  %14 = getelementptr i32, ptr addrspace(1) %0, i64 %13, !dbg !11
  %15 = load <1 x i32>, ptr addrspace(1) %14, align 4, !dbg !12
  %16 = extractelement <1 x i32> %15, i64 0, !dbg !12
  %17 = add i32 %3, 1, !dbg !13
  %18 = add i32 %17, %16, !dbg !14
  %19 = sext i32 %3 to i64, !dbg !15
  %20 = getelementptr i64, ptr addrspace(1) %4, i64 %19, !dbg !15
  %21 = load <1 x i64>, ptr addrspace(1) %20, align 8, !dbg !21
  %22 = extractelement <1 x i64> %21, i64 0, !dbg !21
  %23 = ptrtoint ptr addrspace(1) %14 to i64, !dbg !22
  %24 = sub i64 %23, %22, !dbg !23
  %25 = inttoptr i64 %22 to ptr addrspace(1), !dbg !24
  %26 = getelementptr i8, ptr addrspace(1) %25, i64 %24, !dbg !25
  %27 = insertelement <1 x i32> poison, i32 %18, i64 0, !dbg !26
  store <1 x i32> %27, ptr addrspace(1) %26, align 4, !dbg !26
  %cond = icmp eq i32 %3, 0, !dbg !27
  %.old = icmp eq i32 %11, 0, !dbg !28
  br i1 %cond, label %42, label %28, !dbg !27

28:                                               ; preds = %7
  br i1 %.old, label %29, label %41, !dbg !30

29:                                               ; preds = %28
  %30 = load <1 x i64>, ptr addrspace(1) %4, align 8, !dbg !32
  %31 = extractelement <1 x i64> %30, i64 0, !dbg !32
  %32 = inttoptr i64 %31 to ptr addrspace(1), !dbg !33
  %33 = sext i32 %8 to i64, !dbg !34
  %34 = getelementptr i32, ptr addrspace(1) %2, i64 %33, !dbg !34
  %35 = ptrtoint ptr addrspace(1) %34 to i64, !dbg !35
  %36 = load <1 x i64>, ptr addrspace(1) %20, align 8, !dbg !36
  %37 = extractelement <1 x i64> %36, i64 0, !dbg !36
  %38 = sub i64 %35, %37, !dbg !37
  %39 = getelementptr i8, ptr addrspace(1) %32, i64 %38, !dbg !38
  %40 = atomicrmw add ptr addrspace(1) %39, i32 1 release, align 4, !dbg !30
  br label %41, !dbg !30

41:                                               ; preds = %28, %29
  %.not = icmp ne i32 %3, 1, !dbg !39
  %or.cond = and i1 %.old, %.not, !dbg !27
  br i1 %or.cond, label %43, label %56, !dbg !27

42:                                               ; preds = %7
  br i1 %.old, label %43, label %56, !dbg !30

43:                                               ; preds = %41, %42
  %44 = getelementptr i8, ptr addrspace(1) %4, i64 8, !dbg !40
  %45 = load <1 x i64>, ptr addrspace(1) %44, align 8, !dbg !32
  %46 = extractelement <1 x i64> %45, i64 0, !dbg !32
  %47 = inttoptr i64 %46 to ptr addrspace(1), !dbg !33
  %48 = sext i32 %8 to i64, !dbg !34
  %49 = getelementptr i32, ptr addrspace(1) %2, i64 %48, !dbg !34
  %50 = ptrtoint ptr addrspace(1) %49 to i64, !dbg !35
  %51 = load <1 x i64>, ptr addrspace(1) %20, align 8, !dbg !36
  %52 = extractelement <1 x i64> %51, i64 0, !dbg !36
  %53 = sub i64 %50, %52, !dbg !37
  %54 = getelementptr i8, ptr addrspace(1) %47, i64 %53, !dbg !38
  %55 = atomicrmw add ptr addrspace(1) %54, i32 1 release, align 4, !dbg !30
  br label %56, !dbg !30

56:                                               ; preds = %42, %43, %41
  %57 = sext i32 %8 to i64, !dbg !41
  %58 = getelementptr i32, ptr addrspace(1) %2, i64 %57, !dbg !41
  %59 = load <1 x i64>, ptr addrspace(1) %20, align 8, !dbg !42
  %60 = extractelement <1 x i64> %59, i64 0, !dbg !42
  %61 = ptrtoint ptr addrspace(1) %58 to i64, !dbg !45
  %62 = sub i64 %61, %60, !dbg !46
  %63 = inttoptr i64 %60 to ptr addrspace(1), !dbg !47
  %64 = getelementptr i8, ptr addrspace(1) %63, i64 %62, !dbg !48
  %65 = icmp eq i32 %11, 0, !dbg !49
  br i1 %65, label %70, label %.preheader.preheader, !dbg !49

.loopexit:                                        ; preds = %77
  %66 = extractelement <1 x i64> %76, i64 0
  %67 = sub i64 %61, %66
  %68 = inttoptr i64 %66 to ptr addrspace(1)
  %69 = getelementptr i8, ptr addrspace(1) %68, i64 %67
  br label %70, !dbg !49

70:                                               ; preds = %.loopexit, %56
  %71 = phi ptr addrspace(1) [ %64, %56 ], [ %69, %.loopexit ], !dbg !48
  %72 = cmpxchg ptr addrspace(1) %71, i32 1, i32 0 syncscope("agent") acq_rel monotonic, align 4, !dbg !49
  %73 = extractvalue { i32, i1 } %72, 0, !dbg !49
  store i32 %73, ptr addrspace(3) @global_smem, align 16, !dbg !49
  br label %.preheader.preheader, !dbg !49

.preheader.preheader:                             ; preds = %56, %70
  br label %.preheader, !dbg !50

.preheader:                                       ; preds = %.preheader.preheader, %77
  tail call void asm sideeffect "s_waitcnt lgkmcnt(0) ", ""() #4, !dbg !49
  fence syncscope("workgroup") release, !dbg !49
  tail call void @llvm.amdgcn.s.barrier(), !dbg !49
  fence syncscope("workgroup") acquire, !dbg !49
  %74 = load i32, ptr addrspace(3) @global_smem, align 16, !dbg !49
  %75 = icmp slt i32 %74, 1, !dbg !50
  %76 = load <1 x i64>, ptr addrspace(1) %20, align 8, !dbg !51
  br i1 %75, label %77, label %78, !dbg !50

77:                                               ; preds = %.preheader
  tail call void @llvm.amdgcn.s.waitcnt(i32 49279), !dbg !54
  tail call void @llvm.amdgcn.s.barrier(), !dbg !54
  br i1 %65, label %.loopexit, label %.preheader, !dbg !54

78:                                               ; preds = %.preheader
  %79 = extractelement <1 x i64> %76, i64 0, !dbg !56
  %80 = load <1 x i64>, ptr addrspace(1) %4, align 8, !dbg !59
  %81 = extractelement <1 x i64> %80, i64 0, !dbg !59
  %82 = sub i64 %23, %79, !dbg !60
  %83 = inttoptr i64 %81 to ptr addrspace(1), !dbg !61
  %84 = getelementptr i8, ptr addrspace(1) %83, i64 %82, !dbg !62
  %85 = load <1 x i32>, ptr addrspace(1) %84, align 4, !dbg !63
  %86 = getelementptr i8, ptr addrspace(1) %4, i64 8, !dbg !64
  %87 = load <1 x i64>, ptr addrspace(1) %86, align 8, !dbg !59
  %88 = extractelement <1 x i64> %87, i64 0, !dbg !59
  %89 = inttoptr i64 %88 to ptr addrspace(1), !dbg !61
  %90 = getelementptr i8, ptr addrspace(1) %89, i64 %82, !dbg !62
  %91 = load <1 x i32>, ptr addrspace(1) %90, align 4, !dbg !63
  %92 = extractelement <1 x i32> %91, i64 0, !dbg !65
  %93 = extractelement <1 x i32> %85, i64 0, !dbg !65
  %94 = add i32 %92, %93, !dbg !65
  %95 = getelementptr i32, ptr addrspace(1) %1, i64 %13, !dbg !66
  %96 = insertelement <1 x i32> poison, i32 %94, i64 0, !dbg !67
  store volatile <1 x i32> %96, ptr addrspace(1) %95, align 4, !dbg !67, !nontemporal !68
  ret void, !dbg !69
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1

; Function Attrs: convergent mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.waitcnt(i32 immarg) #3

attributes #0 = { nounwind "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,64" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nofree nounwind willreturn }
attributes #3 = { mustprogress nocallback nofree nounwind willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernels.py", directory: "/work/main/instrument/triton")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!4 = distinct !DISubprogram(name: "allreduce_one_shot", linkageName: "allreduce_one_shot", scope: !1, file: !1, line: 66, type: !5, scopeLine: 66, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{}
!7 = !DILocation(line: 68, column: 24, scope: !4)
!8 = !DILocation(line: 69, column: 17, scope: !4)
!9 = !DILocation(line: 69, column: 38, scope: !4)
!10 = !DILocation(line: 69, column: 25, scope: !4)
!11 = !DILocation(line: 70, column: 26, scope: !4)
!12 = !DILocation(line: 70, column: 16, scope: !4)
!13 = !DILocation(line: 70, column: 34, scope: !4)
!14 = !DILocation(line: 70, column: 45, scope: !4)
!15 = !DILocation(line: 13, column: 37, scope: !16, inlinedAt: !18)
!16 = distinct !DILexicalBlockFile(scope: !4, file: !17, discriminator: 0)
!17 = !DIFile(filename: "iris_device.py", directory: "/work/main/instrument/triton")
!18 = !DILocation(line: 28, column: 48, scope: !16, inlinedAt: !19)
!19 = !DILocation(line: 71, column: 54, scope: !20)
!20 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!21 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !18)
!22 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !18)
!23 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !18)
!24 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !18)
!25 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !18)
!26 = !DILocation(line: 28, column: 61, scope: !16, inlinedAt: !19)
!27 = !DILocation(line: 75, column: 11, scope: !4)
!28 = !DILocation(line: 38, column: 73, scope: !16, inlinedAt: !29)
!29 = !DILocation(line: 76, column: 66, scope: !20)
!30 = !DILocation(line: 17, column: 42, scope: !16, inlinedAt: !31)
!31 = !DILocation(line: 38, column: 60, scope: !16, inlinedAt: !29)
!32 = !DILocation(line: 14, column: 22, scope: !16, inlinedAt: !31)
!33 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !31)
!34 = !DILocation(line: 76, column: 45, scope: !4)
!35 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !31)
!36 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !31)
!37 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !31)
!38 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !31)
!39 = !DILocation(line: 75, column: 16, scope: !4)
!40 = !DILocation(line: 14, column: 35, scope: !16, inlinedAt: !31)
!41 = !DILocation(line: 77, column: 43, scope: !4)
!42 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !43)
!43 = !DILocation(line: 33, column: 60, scope: !16, inlinedAt: !44)
!44 = !DILocation(line: 77, column: 82, scope: !20)
!45 = !DILocation(line: 15, column: 26, scope: !16, inlinedAt: !43)
!46 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !43)
!47 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !43)
!48 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !43)
!49 = !DILocation(line: 33, column: 78, scope: !16, inlinedAt: !44)
!50 = !DILocation(line: 79, column: 16, scope: !4)
!51 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !52)
!52 = !DILocation(line: 0, scope: !16, inlinedAt: !53)
!53 = !DILocation(line: 0, scope: !20)
!54 = !DILocation(line: 33, column: 78, scope: !16, inlinedAt: !55)
!55 = !DILocation(line: 80, column: 86, scope: !20)
!56 = !DILocation(line: 13, column: 24, scope: !16, inlinedAt: !57)
!57 = !DILocation(line: 23, column: 54, scope: !16, inlinedAt: !58)
!58 = !DILocation(line: 84, column: 54, scope: !20)
!59 = !DILocation(line: 14, column: 22, scope: !16, inlinedAt: !57)
!60 = !DILocation(line: 15, column: 39, scope: !16, inlinedAt: !57)
!61 = !DILocation(line: 16, column: 36, scope: !16, inlinedAt: !57)
!62 = !DILocation(line: 17, column: 34, scope: !16, inlinedAt: !57)
!63 = !DILocation(line: 23, column: 19, scope: !16, inlinedAt: !58)
!64 = !DILocation(line: 14, column: 35, scope: !16, inlinedAt: !57)
!65 = !DILocation(line: 84, column: 15, scope: !4)
!66 = !DILocation(line: 85, column: 22, scope: !4)
!67 = !DILocation(line: 85, column: 28, scope: !4)
!68 = !{i32 1}
!69 = !DILocation(line: 85, column: 4, scope: !4)
